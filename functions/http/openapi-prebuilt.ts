import { OPENAPI_GZIP_BASE64 } from './openapi-prebuilt-data.js';

/**
 * The OpenAPI document as served: built from the route contracts when the code is built
 * (scripts/build-openapi.ts writes openapi-prebuilt-data.ts), not when a function starts. Building
 * it at run time meant bundling every route's zod schemas into the openapi function and
 * converting them all to JSON Schema on its first request. Only the server URL depends on the
 * request, so the stored document carries a placeholder for it.
 */

/** The server URL the stored document is built with; replaced by the request's origin. */
export const ORIGIN_PLACEHOLDER = 'https://gleaner.invalid';

let cache: { origin: string; doc: { servers: Array<{ url: string }> } } | undefined;

/** The prebuilt document with `servers` naming `origin` (the same object `openApiDocument(origin)` builds). */
export async function prebuiltOpenApiDocument(origin: string): Promise<unknown> {
  if (cache?.origin === origin) return cache.doc;
  const { gunzipSync } = await import('node:zlib');
  const doc = JSON.parse(gunzipSync(Buffer.from(OPENAPI_GZIP_BASE64, 'base64')).toString('utf8')) as { servers: Array<{ url: string }> };
  doc.servers = [{ url: origin }];
  cache = { origin, doc };
  return doc;
}
