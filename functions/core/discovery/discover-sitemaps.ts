import type { Engine } from '../engine/pipeline.js';
import { AppError } from '../errors.js';
import { normalizeUrl } from '../scrapers/normalize-url.js';
import { MAX_SITEMAP_BYTES, readSitemapBody, type BodyReadResult } from './sitemap-body.js';
import { SitemapParser, type ParseStats } from './sitemap-parser.js';

/** A page URL a sitemap lists (normalised), with what the sitemap says about it. */
export interface DiscoveredUrl {
  url: string;
  lastmod: string | null;
  title: string | null;
}

/** Options of {@link discoverSitemaps}. */
export interface DiscoverOptions {
  /** Page URLs wanted at most: reading stops once this many were found (the run's limit or max_pages). */
  maxUrls: number;
  /** Does a page URL count (same-site rules, include/exclude patterns)? Others are dropped. */
  acceptUrl(url: string): boolean;
  /** May this sitemap be fetched (same-site rules)? Others are skipped with a log line. */
  acceptSitemap(url: string): boolean;
  /** Sitemaps fetched at most, robots.txt's and `/sitemap.xml` included (default 50). */
  maxSitemaps?: number;
  /** Index nesting followed at most: an index (1) listing indexes (2) … (default 4). */
  maxIndexDepth?: number;
  /** Bytes of one sitemap read at most, decompressed (default 50 MB). */
  maxBytes?: number;
  /** Bytes of all sitemaps together read at most, decompressed (default 200 MB). */
  maxTotalBytes?: number;
  /** Timeout of one sitemap fetch, body included (default 20 s). */
  timeoutMs?: number;
  /** Epoch ms after which no further sitemap is fetched (the caller's time budget). */
  deadline?: number;
  /** Asked before each fetch: the run was stopped. */
  shouldStop?(): boolean;
}

/** What {@link discoverSitemaps} found, and what it fetched to find it. */
export interface DiscoveryResult {
  /** Page URLs in sitemap order, de-duplicated, at most `maxUrls`. */
  urls: DiscoveredUrl[];
  /** Sitemap fetches made (each one counted in the run's requests). */
  fetched: number;
  /** One line per notable event (also written to the run's raw log). */
  notes: string[];
}

export const DEFAULT_MAX_SITEMAPS = 50;
export const DEFAULT_MAX_INDEX_DEPTH = 4;
export const DEFAULT_MAX_TOTAL_BYTES = 200 * 1024 * 1024;
const ACCEPT = 'application/xml,text/xml;q=0.9,text/plain;q=0.8,application/gzip;q=0.7,*/*;q=0.5';

interface Pending {
  url: string;
  /** 0 for robots.txt's and the default sitemap, one more per index level. */
  depth: number;
}

/** Counters of one sitemap's read, turned into its log note. */
interface SitemapRead {
  urls: number;
  children: number;
  duplicates: number;
  outOfScope: number;
  invalid: number;
  loops: number;
  crossSite: number;
  tooDeep: number;
  overCap: number;
  parse: ParseStats | null;
  body: BodyReadResult | null;
}

/**
 * Read a site's sitemaps through the run's engine: the `Sitemap:` lines of robots.txt and
 * `<origin>/sitemap.xml`, then every sitemap index they lead to (an index's children right after it, so URLs come out in
 * sitemap order). Each fetch goes
 * through the engine's governance (target policy, egress guard, robots.txt, politeness) and is
 * counted in the run's requests. Work is bounded whatever the site serves: a fetch cap, an index
 * depth cap, a visited set (an index listing itself or a loop is fetched once), same-site sitemaps
 * only, a byte cap per sitemap and in total (decompressed, so a gzip bomb is cut off), a per-fetch
 * timeout, a deadline, and the URL cap. Each limit met leaves a line in the run's raw log; nothing
 * here throws for a bad sitemap.
 */
export async function discoverSitemaps(engine: Engine, startUrl: string, opts: DiscoverOptions): Promise<DiscoveryResult> {
  const maxSitemaps = opts.maxSitemaps ?? DEFAULT_MAX_SITEMAPS;
  const maxDepth = opts.maxIndexDepth ?? DEFAULT_MAX_INDEX_DEPTH;
  const maxTotal = opts.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const out: DiscoveryResult = { urls: [], fetched: 0, notes: [] };
  const note = (url: string, reason: string) => {
    out.notes.push(`${url}: ${reason}`);
    engine.note(url, reason);
  };
  const seenUrls = new Set<string>();
  const visited = new Set<string>();
  const queue: Pending[] = [];

  const origin = new URL(startUrl).origin;
  // robots.txt unreadable: the default location is still tried.
  const listed = await engine.robotsSitemaps(startUrl).catch(() => [] as string[]);
  for (const raw of [...listed, `${origin}/sitemap.xml`]) {
    const u = normalizeUrl(raw.trim(), origin);
    if (!u || visited.has(u)) continue;
    if (!opts.acceptSitemap(u)) {
      note(u, 'sitemap skipped: robots.txt lists it on another site');
      visited.add(u);
      continue;
    }
    visited.add(u);
    queue.push({ url: u, depth: 0 });
  }

  let totalBytes = 0;
  while (queue.length && out.urls.length < opts.maxUrls) {
    const next = queue.shift()!;
    if (opts.shouldStop?.()) break;
    if (opts.deadline !== undefined && Date.now() >= opts.deadline) {
      note(next.url, `sitemap discovery stopped: its time budget ran out with ${queue.length + 1} sitemap(s) not read`);
      break;
    }
    if (out.fetched >= maxSitemaps) {
      note(next.url, `sitemap discovery stopped: ${maxSitemaps} sitemaps fetched (the cap), ${queue.length + 1} not read`);
      break;
    }
    if (totalBytes >= maxTotal) {
      note(next.url, `sitemap discovery stopped: ${Math.round(maxTotal / 1048576)} MB of sitemaps read (the cap), ${queue.length + 1} not read`);
      break;
    }
    // An index's children are read right after it, in its order: URLs come out in sitemap order.
    const children: Pending[] = [];
    const r: SitemapRead = { urls: 0, children: 0, duplicates: 0, outOfScope: 0, invalid: 0, loops: 0, crossSite: 0, tooDeep: 0, overCap: 0, parse: null, body: null };
    const parser = new SitemapParser((e) => {
      const u = normalizeUrl(e.loc);
      if (!u) {
        r.invalid++;
        return true;
      }
      if (e.kind === 'sitemap') {
        if (visited.has(u)) r.loops++;
        else if (!opts.acceptSitemap(u)) r.crossSite++;
        else if (next.depth + 1 > maxDepth) r.tooDeep++;
        else if (visited.size >= maxSitemaps * 4) r.overCap++; // never queue more than could be fetched
        else {
          r.children++;
          visited.add(u);
          children.push({ url: u, depth: next.depth + 1 });
        }
        return true;
      }
      if (seenUrls.has(u)) r.duplicates++;
      else if (!opts.acceptUrl(u)) r.outOfScope++;
      else {
        seenUrls.add(u);
        r.urls++;
        out.urls.push({ url: u, lastmod: e.lastmod, title: e.title });
        if (out.urls.length >= opts.maxUrls) return false;
      }
      return true;
    });
    out.fetched++;
    let line = '';
    let res;
    try {
      const fetchDeadline = Date.now() + (opts.timeoutMs ?? 20_000);
      res = await engine.fetchResource(next.url, { timeoutMs: opts.timeoutMs ?? 20_000, accept: ACCEPT }, async (resp) => {
        if (resp.status < 200 || resp.status >= 300) return { value: resp.status, bytes: 0, note: `sitemap not read: HTTP ${resp.status}` };
        const room = Math.max(0, Math.min(opts.maxBytes ?? MAX_SITEMAP_BYTES, maxTotal - totalBytes));
        r.body = await readSitemapBody(resp.body, parser, room, opts.deadline === undefined ? fetchDeadline : Math.min(fetchDeadline, opts.deadline));
        r.parse = parser.stats;
        totalBytes += r.body.bytes;
        line = describeRead(r, opts.maxUrls, out.urls.length, room);
        return { value: resp.status, bytes: r.body.bytes, note: line };
      });
    } catch (err) {
      // Already logged by the engine (forbidden target, timeout, connection error).
      out.notes.push(`${next.url}: sitemap not read (${err instanceof AppError ? err.message : (err as Error).message})`);
      queue.unshift(...children);
      continue;
    }
    queue.unshift(...children);
    if (res.skipped) {
      out.notes.push(`${next.url}: sitemap skipped: disallowed by robots.txt`);
      continue;
    }
    if (line) out.notes.push(`${next.url}: ${line}`);
  }
  if (queue.length && out.urls.length >= opts.maxUrls) out.notes.push(`sitemap discovery stopped at ${opts.maxUrls} URLs (the limit); ${queue.length} sitemap(s) not read`);
  return out;
}

/** The log line of one sitemap read: what it held and every limit it met. */
function describeRead(r: SitemapRead, maxUrls: number, total: number, cap: number): string {
  const parts = [`sitemap${r.body?.gzip ? ' (gzip)' : ''}: ${r.urls} URL(s)`];
  if (r.children) parts.push(`${r.children} child sitemap(s)`);
  if (r.duplicates) parts.push(`${r.duplicates} duplicate(s)`);
  if (r.outOfScope) parts.push(`${r.outOfScope} off-site or filtered out`);
  if (r.invalid) parts.push(`${r.invalid} invalid <loc>`);
  if (r.parse?.malformed) parts.push(`${r.parse.malformed} malformed entr${r.parse.malformed === 1 ? 'y' : 'ies'} skipped`);
  if (r.loops) parts.push(`${r.loops} index entr${r.loops === 1 ? 'y' : 'ies'} already visited (self-reference or loop) skipped`);
  if (r.crossSite) parts.push(`${r.crossSite} child sitemap(s) on another site skipped`);
  if (r.tooDeep) parts.push(`${r.tooDeep} child sitemap(s) past the index depth cap skipped`);
  if (r.overCap) parts.push(`${r.overCap} child sitemap(s) past the sitemap cap skipped`);
  if (r.body?.truncated) parts.push(`body truncated at ${Math.round(cap / 1048576)} MB (the cap)`);
  if (r.body?.error) parts.push(`read stopped: ${r.body.error}`);
  if (total >= maxUrls) parts.push(`URL limit ${maxUrls} reached, rest not read`);
  if (r.parse && !r.parse.entries && !r.body?.error) parts.push('no sitemap entries found');
  return parts.join('; ');
}
