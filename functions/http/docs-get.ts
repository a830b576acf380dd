import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api, lazyContract } from './pipeline/api.js';
import { renderDocsPage, DOCS_CSP, SCALAR_ASSET } from './docs-page.js';

/**
 * GET /docs: the reference page, and (`?asset=api-reference.js`) its renderer, Scalar API
 * Reference's standalone bundle, served from here so the page works offline under a
 * `script-src 'self'` CSP. One route for both keeps the API stack's resource count down. On AWS
 * the script is copied next to the bundled handler (lib/gleaner-function.ts); locally it is read
 * from node_modules.
 */
const SCALAR_SOURCE = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';

let cached: { body: string; etag: string } | undefined;
function loadScript() {
  if (!cached) {
    const here = dirname(fileURLToPath(import.meta.url));
    const file = [join(here, SCALAR_ASSET), resolve(here, '../..', SCALAR_SOURCE)].find((p) => existsSync(p));
    if (!file) throw new Error(`${SCALAR_SOURCE} is missing from this bundle`);
    const body = readFileSync(file, 'utf8');
    cached = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
  return cached;
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': DOCS_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

export const handler = api(lazyContract('docs.get', () => import('./contracts/service.js').then((m) => m.contracts['docs.get'])), async (req) => {
  if (!req.query.asset) return { raw: renderDocsPage(), headers: PAGE_HEADERS };
  const a = loadScript();
  // The file changes only with a deploy; the ETag makes a reload cheap without risking a stale page.
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600, must-revalidate', etag: a.etag, 'x-content-type-options': 'nosniff' };
  const inm = req.headers['if-none-match'] ?? req.headers['If-None-Match'];
  if (inm && inm.split(',').map((s) => s.trim()).includes(a.etag)) return { status: 304, raw: '', headers };
  return { raw: a.body, headers };
});
