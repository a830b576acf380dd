import { Readable } from 'node:stream';
import { constants, createGunzip } from 'node:zlib';
import type { SitemapParser } from './sitemap-parser.js';

/**
 * Largest sitemap body read, after decompression: the protocol's own limit (50 MB uncompressed).
 * Reading stops there and what was read is kept, so a 1 GB body costs 50 MB of reading at most.
 */
export const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

/** How reading one sitemap body ended. */
export interface BodyReadResult {
  /** Bytes of sitemap text read (decompressed). */
  bytes: number;
  /** The body was gzip (magic bytes `1f 8b`), decompressed here. */
  gzip: boolean;
  /** Reading stopped at the byte cap; the rest of the body was not read. */
  truncated: boolean;
  /** Why reading failed part-way (a broken gzip stream, a timeout); entries before it are kept. */
  error: string | null;
}

/** The first chunk of a stream and the stream again with that chunk in front. */
async function peek(body: AsyncIterable<Uint8Array>): Promise<{ first: Uint8Array | undefined; all: AsyncIterable<Uint8Array> }> {
  const it = body[Symbol.asyncIterator]();
  const head = await it.next();
  const first = head.done ? undefined : head.value;
  async function* all() {
    try {
      if (first) yield first;
      for (;;) {
        const n = await it.next();
        if (n.done) return;
        yield n.value;
      }
    } finally {
      // Stopped early (a cap, an error): let the source stop too (cancels the response body).
      await it.return?.();
    }
  }
  return { first, all: all() };
}

/**
 * Stream a sitemap body into `parser`: gzip (told by its magic bytes, whatever the URL or the
 * Content-Type say) is inflated on the way with the output capped at `maxBytes`, so a gzip bomb
 * costs at most `maxBytes` of inflation; text is decoded as UTF-8 (the protocol's encoding).
 * Stops as soon as the parser stops (its entry cap was reached), the cap is met or `deadline`
 * (epoch ms: the fetch's own) passes; the parser is linear in its input. Never throws
 * for a bad body: the error is returned with whatever was parsed before it.
 */
export async function readSitemapBody(body: AsyncIterable<Uint8Array>, parser: SitemapParser, maxBytes = MAX_SITEMAP_BYTES, deadline?: number): Promise<BodyReadResult> {
  const out: BodyReadResult = { bytes: 0, gzip: false, truncated: false, error: null };
  const decoder = new TextDecoder('utf-8');
  let source: Readable | undefined;
  let inflate: ReturnType<typeof createGunzip> | undefined;
  try {
    const { first, all } = await peek(body);
    out.gzip = !!first && first.length >= 2 && first[0] === 0x1f && first[1] === 0x8b;
    let chunks: AsyncIterable<Uint8Array> = all;
    if (out.gzip) {
      source = Readable.from(all, { objectMode: false });
      // Sync flush at the end: a gzip stream cut short (a truncated body) yields what it holds
      // instead of failing with "unexpected end of file".
      inflate = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
      source.on('error', (err) => inflate?.destroy(err));
      source.pipe(inflate);
      chunks = inflate;
    }
    for await (const raw of chunks) {
      // Parsing is under the fetch's deadline too (issue 27): past it, what was parsed is kept.
      if (deadline !== undefined && Date.now() > deadline) {
        out.error = 'timed out while reading the body';
        out.truncated = true;
        break;
      }
      const chunk = raw as Uint8Array;
      const room = maxBytes - out.bytes;
      const take = chunk.length > room ? chunk.subarray(0, room) : chunk;
      out.bytes += take.length;
      parser.push(decoder.decode(take, { stream: true }));
      if (parser.stopped) break;
      if (chunk.length > room) {
        out.truncated = true;
        break;
      }
    }
  } catch (err) {
    out.error = describe(err);
  } finally {
    inflate?.destroy();
    source?.destroy();
  }
  if (!parser.stopped) {
    parser.push(decoder.decode());
    parser.end();
  }
  return out;
}

function describe(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out while reading the body';
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) return `not a valid gzip stream (${e.message ?? e.code})`;
  return e?.message ?? String(err);
}
