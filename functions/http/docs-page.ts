/** The renderer's file name, next to the bundled docs handler and in the page's script URL. */
export const SCALAR_ASSET = 'api-reference.js';

/**
 * The API reference page: Scalar API Reference (bundled, served by GET /docs?asset=api-reference.js)
 * rendering the served OpenAPI document, with navigation by tag, request and response shapes and
 * examples. No CDN, no external fonts: it works offline.
 */

/**
 * The console's CSP (functions/http/console-get.ts) with one difference, for this page only:
 * `style-src` adds 'unsafe-inline', because the renderer (a Vue app) sets inline styles at run
 * time. Scripts stay 'self' only; connect-src stays 'self' (the page fetches only the document).
 */
export const DOCS_CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

/** Renderer options: no external fonts, no hosted proxy or AI agent, no telemetry; the document's own servers. */
const CONFIG = {
  withDefaultFonts: false,
  proxyUrl: '',
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  showToolbar: 'never',
  documentDownloadType: 'json',
  defaultOpenAllTags: false,
  layout: 'modern',
  theme: 'default',
  metaData: { title: 'Gleaner API reference' },
};

const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function renderDocsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Gleaner API reference</title>
</head>
<body>
<noscript>This reference needs JavaScript. The machine-readable document is at <a href="/v1/openapi.json">/v1/openapi.json</a>.</noscript>
<script id="api-reference" data-url="/v1/openapi.json" data-configuration="${attr(JSON.stringify(CONFIG))}"></script>
<script src="/docs?asset=${SCALAR_ASSET}"></script>
</body>
</html>
`;
}
