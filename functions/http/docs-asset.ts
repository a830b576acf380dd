import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';

/**
 * The reference page's renderer: Scalar API Reference's standalone bundle, served from here so
 * /docs works offline and under a `script-src 'self'` CSP. On AWS the file is copied next to the
 * bundled handler (lib/gleaner-function.ts); locally it is read from node_modules.
 */
export const SCALAR_FILE = 'api-reference.js';
const SCALAR_SOURCE = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';

function locate(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  return [join(here, SCALAR_FILE), resolve(here, '../..', SCALAR_SOURCE)].find((p) => existsSync(p));
}

let cached: { body: string; etag: string } | undefined;
function load() {
  if (!cached) {
    const file = locate();
    if (!file) return undefined;
    const body = readFileSync(file, 'utf8');
    cached = { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
  }
  return cached;
}

export const handler = api(contracts['docs.asset'], async (req) => {
  const a = load();
  if (!a) throw new Error(`${SCALAR_SOURCE} is missing from this bundle`);
  // The file only changes with a deploy; the ETag makes a reload cheap without risking a stale page.
  const headers = { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=3600, must-revalidate', etag: a.etag, 'x-content-type-options': 'nosniff' };
  const inm = req.headers['if-none-match'] ?? req.headers['If-None-Match'];
  if (inm && inm.split(',').map((s) => s.trim()).includes(a.etag)) return { status: 304, raw: '', headers };
  return { raw: a.body, headers };
});
