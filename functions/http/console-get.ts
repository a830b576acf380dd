import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Context } from 'aws-lambda';
import { api, lazyContract } from './pipeline/api.js';
import type { ApiRequest, ApiResult, Event, Result } from './pipeline/types.js';

/**
 * The web console (console_url = `/`): static files from the console/ folder, no build step.
 * `GET /` serves index.html; `GET /console/{proxy+}` serves the other files. Only files that
 * exist in the folder listing are served (an allowlist built from the disk, so `..`, encoded
 * or not, can never escape it); anything else is a 404 in the API error shape.
 */

/** Where console/ is: next to the Lambda bundle (copied by lib/gleaner-function.ts), or at the repo root. */
function consoleRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [process.env.GLEANER_CONSOLE_DIR, join(here, 'console'), resolve(here, '../../console')].filter((c): c is string => !!c);
  for (const c of candidates) if (existsSync(join(c, 'index.html'))) return c;
  return candidates[candidates.length - 1]!;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml; charset=utf-8',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

export const CONSOLE_CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'";

const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONSOLE_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
};

interface Asset {
  body: string;
  type: string;
  etag: string;
}

/** Relative names (with '/') of the servable files: text types only, no dot-files. */
function listAssets(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string, depth: number) => {
    if (depth > 4) return;
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.')) continue;
      const full = join(dir, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full, depth + 1);
      else if (st.isFile() && TYPES[name.split('.').pop()!.toLowerCase()]) out.set(relative(root, full).split(sep).join('/'), full);
    }
  };
  if (existsSync(root)) walk(root, 0);
  return out;
}

let cached: { root: string; files: Map<string, string>; assets: Map<string, Asset> } | undefined;

/** Cached for the life of the process on AWS; read fresh in local mode so edits show on reload. */
function loadAsset(name: string, live: boolean): Asset | undefined {
  if (!cached || live) {
    const root = consoleRoot();
    cached = { root, files: listAssets(root), assets: new Map() };
  }
  const file = cached.files.get(name);
  if (!file) return undefined;
  let a = cached.assets.get(name);
  if (!a) {
    const body = readFileSync(file, 'utf8');
    a = { body, type: TYPES[name.split('.').pop()!.toLowerCase()]!, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
    cached.assets.set(name, a);
  }
  return a;
}

/** The file name asked for, or undefined when it cannot be a console file. */
function assetName(proxy: string | undefined): string | undefined {
  if (proxy === undefined) return 'index.html';
  // Names are plain: letters, digits, - _ . and '/' between segments; no segment starts with '.'.
  if (!/^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$/.test(proxy) || proxy.length > 200) return undefined;
  return proxy;
}

async function serve(req: ApiRequest): Promise<ApiResult> {
  const name = assetName((req.params as { proxy?: string } | undefined)?.proxy);
  const asset = name ? loadAsset(name, req.deps.config.mode === 'local') : undefined;
  if (!asset) {
    return {
      status: 404,
      body: { code: 'not_found', message: 'Console file not found', request_id: req.requestId },
      headers: { ...SECURITY_HEADERS, 'cache-control': 'no-store' },
    };
  }
  const headers = {
    ...SECURITY_HEADERS,
    'content-type': asset.type,
    // File names carry no content hash, so browsers revalidate each time (cheap with the ETag).
    'cache-control': 'no-cache',
    etag: asset.etag,
  };
  const inm = req.headers['if-none-match'] ?? req.headers['If-None-Match'];
  if (inm && inm.split(',').map((s) => s.trim()).includes(asset.etag)) return { status: 304, raw: '', headers };
  return { raw: asset.body, headers };
}

const index = api(lazyContract('console.index', () => import('./contracts/session.js').then((m) => m.contracts['console.index'])), serve);
const asset = api(lazyContract('console.asset', () => import('./contracts/session.js').then((m) => m.contracts['console.asset'])), serve);

/** One module serves both console rows; the route key tells which (API Gateway and the local server set it). */
export const handler = (event: Event, context: Context): Promise<Result> =>
  (event.routeKey === 'GET /' || event.rawPath === '/' ? index : asset)(event, context);
