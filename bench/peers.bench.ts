/**
 * Gleaner against the crawler users would pick instead (Crawlee 3), side by side in one process
 * (a plain tsx script: `npx tsx bench/peers.bench.ts`, or `npm run bench peers`).
 *
 *   http     : Gleaner http engine, formats [html]          vs CheerioCrawler returning the body
 *   markdown : Gleaner http engine, default formats         vs CheerioCrawler + turndown (+ text,
 *              (markdown, text, links, metadata)               links, metadata the same way)
 *   markdown-plain: Gleaner http engine, default formats    vs CheerioCrawler + turndown on the page
 *              (main content, text, links, metadata)          body, nothing more (what Crawlee users
 *                                                             write for markdown; issue 38's line:
 *                                                             target 1.5x)
 *   browser  : Gleaner browser engine, formats [html]       vs PuppeteerCrawler + waitForSelector
 *              on JavaScript pages with subresources          (#marker) + page.content()
 *
 * Same loopback fixture pages, same concurrency, same Chromium binary and flags (the
 * @sparticuz/chromium headless shell, or GLEANER_CHROMIUM_PATH): Crawlee gets the package's
 * defaults with Gleaner's hardening (hardenedArgs: the no-UDP flags and every feature Gleaner turns
 * off, PERFORMANCE_DISABLED_FEATURES included) and the SPARTICUZ_EXTRA_FLAGS Gleaner's launcher adds
 * (software compositing; chromium-profile.ts). What Gleaner's engine does per page (no images,
 * fonts or media; the viewport undrawn unless a screenshot or actions need it) is its own work,
 * not a flag, and stays on its side, as Crawlee's new page per request stays on Crawlee's. PEERS_CRAWLEE_FLAGS=package leaves those out
 * (the package's defaults only, what a Crawlee user gets unless told): the emulated-GPU
 * compositing then costs Crawlee, which loads images, much more than Gleaner, and the ratio
 * says more about that flag than about either crawler (issue 37: 2.7-3.3x there against
 * 1.4-1.7x with the same flags, one load). After one untimed warm-up pass
 * per side, timed passes alternate A B B A ... so drift hits both alike. Per arm: pages/s over
 * all timed passes, CPU ms per page of this process (process.cpuUsage: Crawlee runs in-process)
 * and of the arm's Chromium processes (/proc), peak RSS (node, and the arm's Chromium tree), and
 * the correctness count: pages whose marker came back (for the browser, the marker only the
 * late XHR of the page brings).
 *
 * Env: PEERS_ARMS=http,markdown,markdown-plain,browser (the default; add browser-md for the browser with default
 * formats on both sides, PuppeteerCrawler + turndown), PEERS_ROUNDS (timed passes per side,
 * default 4), PEERS_CONCURRENCY (default 4), PEERS_BROWSER_1000=1 adds a 1,000-page browser pass
 * reporting RSS every 100 pages (about 2-3 minutes), PEERS_BROWSER_PAGES=static runs the browser
 * arm on the static pages (Crawlee then only waits for `load`), PEERS_THREADS=1 adds each browser
 * side's Chromium CPU ms per page by process type and thread (where Chromium's time goes). Crawlee keeps its storage in memory (a temp CRAWLEE_STORAGE_DIR
 * removed at the end); nothing leaves 127.0.0.1.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const storageDir = mkdtempSync(join(tmpdir(), 'gleaner-bench-crawlee-'));
process.env.CRAWLEE_STORAGE_DIR = storageDir;
process.env.CRAWLEE_PERSIST_STORAGE = 'false';
process.env.CRAWLEE_PURGE_ON_START = 'true';
// Removed however the script ends (a failed arm included).
process.on('exit', () => rmSync(storageDir, { recursive: true, force: true }));

const { CheerioCrawler } = await import('@crawlee/cheerio');
const { PuppeteerCrawler } = await import('@crawlee/puppeteer');
const { Configuration, log: crawleeLog, LogLevel } = await import('@crawlee/core');
const { default: TurndownService } = await import('turndown');
const { load: loadHtml } = await import('cheerio');
type CheerioAPI = import('cheerio').CheerioAPI;
const puppeteer = (await import('puppeteer-core')).default;
const { LocalChromiumLauncher, sparticuzExecutable } = await import('../functions/adapters/local/chromium-launcher.js');
const { hardenedArgs, SPARTICUZ_EXTRA_FLAGS } = await import('../functions/adapters/browser/chromium-profile.js');
const { BrowserSession } = await import('../functions/core/engine/fetch-browser.js');
const { createEngine } = await import('../functions/core/engine/pipeline.js');
const { EgressGuard } = await import('../functions/core/governance/egress-guard.js');
const { RobotsPolicy } = await import('../functions/core/governance/robots.js');
const { startFixtureSite } = await import('../test/fixtures/site/server.js');
type ScrapeFormat = import('../functions/core/engine/types.js').ScrapeFormat;
type PageResult = import('../functions/core/engine/types.js').PageResult;

crawleeLog.setLevel(LogLevel.WARNING);

const ARMS = new Set((process.env.PEERS_ARMS ?? 'http,markdown,markdown-plain,browser').split(',').map((s) => s.trim()));
const ROUNDS = Number(process.env.PEERS_ROUNDS ?? 4);
const CONCURRENCY = Number(process.env.PEERS_CONCURRENCY ?? 4);
const STATIC_PAGES = 100;
const RICH_PAGES = 32;
const UA = 'GleanerBot/0.1 (+https://gleaner.invalid; bench)';

// ---------------------------------------------------------------------------------------------
// Measurement: CPU of this process and of Chromium trees, RSS sampling.

const TICK_MS = 10; // Linux USER_HZ is 100
interface ProcInfo { pid: number; ppid: number; cpuTicks: number; rssPages: number }
function procTable(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields after comm: state(0) ppid(1) ... utime(11) stime(12) cutime(13) cstime(14) ... rss(21)
      out.push({ pid: Number(d), ppid: Number(f[1]), cpuTicks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]), rssPages: Number(f[21]) });
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}
/** Processes under `root` (itself included). */
function tree(table: ProcInfo[], root: number): ProcInfo[] {
  const kids = new Map<number, ProcInfo[]>();
  for (const p of table) kids.set(p.ppid, [...(kids.get(p.ppid) ?? []), p]);
  const out: ProcInfo[] = [];
  const walk = (pid: number) => {
    for (const k of kids.get(pid) ?? []) {
      out.push(k);
      walk(k.pid);
    }
  };
  const self = table.find((p) => p.pid === root);
  if (self) out.push(self);
  walk(root);
  return out;
}
const PAGE = 4096;
/** CPU ms per process and total RSS bytes of the browser processes an arm owns (by root pid). */
function browserUsage(roots: number[]): { cpu: Map<number, number>; rss: number } {
  const table = procTable();
  const cpu = new Map<number, number>();
  let rss = 0;
  for (const r of roots) for (const p of tree(table, r)) {
    cpu.set(p.pid, p.cpuTicks * TICK_MS);
    rss += p.rssPages * PAGE;
  }
  return { cpu, rss };
}

/**
 * PEERS_THREADS=1: CPU ms of every thread of the browser processes under `roots`, by `pid/tid`,
 * with its key: process type (`--type=`, `browser` for the main process; the single-process
 * headless shell has only that) and thread name without its trailing number. Sampled with the
 * rest (the sampling costs this process a little CPU on both sides alike).
 */
const THREADS = process.env.PEERS_THREADS === '1';
function threadUsage(roots: number[]): Map<string, { key: string; ms: number }> {
  const out = new Map<string, { key: string; ms: number }>();
  const table = procTable();
  for (const r of roots) for (const p of tree(table, r)) {
    try {
      const type = /--type=([\w-]+)/.exec(readFileSync(`/proc/${p.pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      for (const t of readdirSync(`/proc/${p.pid}/task`)) {
        const stat = readFileSync(`/proc/${p.pid}/task/${t}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replace(/\d+$/, '');
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        out.set(`${p.pid}/${t}`, { key: `${type}/${name}`, ms: (Number(f[11]) + Number(f[12])) * TICK_MS });
      }
    } catch {
      /* exited meanwhile */
    }
  }
  return out;
}

interface ArmStats { pages: number; ms: number; nodeCpuMs: number; browserCpuMs: number; peakNodeRss: number; peakBrowserRss: number; ok: number; threads: Map<string, number> }
const emptyStats = (): ArmStats => ({ pages: 0, ms: 0, nodeCpuMs: 0, browserCpuMs: 0, peakNodeRss: 0, peakBrowserRss: 0, ok: 0, threads: new Map() });

/** One side of a comparison. `pass` returns how many pages came back with their marker. */
interface Side {
  name: string;
  pass(urls: string[], tag: string): Promise<number>;
  /** Root pids of the Chromium processes this side owns (empty for http sides). */
  browserPids(): number[];
  close(): Promise<void>;
}

async function measure(side: Side, urls: string[], tag: string, into: ArmStats): Promise<void> {
  // Browsers may be relaunched mid-pass (Crawlee retires one every 100 pages): CPU is the last
  // value seen per process minus its value at the start (0 for processes born meanwhile).
  const b0 = browserUsage(side.browserPids()).cpu;
  const last = new Map(b0);
  const sample = () => {
    into.peakNodeRss = Math.max(into.peakNodeRss, process.memoryUsage.rss());
    const roots = side.browserPids();
    if (!roots.length) return;
    const u = browserUsage(roots);
    for (const [pid, ms] of u.cpu) last.set(pid, ms);
    if (th0) for (const [id, t] of threadUsage(roots)) thLast.set(id, t);
    into.peakBrowserRss = Math.max(into.peakBrowserRss, u.rss);
  };
  // Per thread (PEERS_THREADS), like the processes: the last value seen minus the one at the start.
  const th0 = THREADS ? threadUsage(side.browserPids()) : undefined;
  const thLast = new Map(th0);
  const timer = setInterval(sample, 200);
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const ok = await side.pass(urls, tag);
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  clearInterval(timer);
  sample();
  into.pages += urls.length;
  into.ms += ms;
  into.nodeCpuMs += (c.user + c.system) / 1000;
  for (const [pid, ms] of last) into.browserCpuMs += ms - (b0.get(pid) ?? 0);
  if (th0) for (const [id, t] of thLast) into.threads.set(t.key, (into.threads.get(t.key) ?? 0) + t.ms - (th0.get(id)?.ms ?? 0));
  into.ok += ok;
}

/** Warm-up both sides, then ROUNDS timed passes each in A B B A order. */
async function compare(label: string, a: Side, b: Side, urls: string[]) {
  console.log(`\n${label}: warm-up…`);
  await a.pass(urls, 'warm');
  await b.pass(urls, 'warm');
  const sa = emptyStats();
  const sb = emptyStats();
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 === 0 ? [[a, sa], [b, sb]] as const : [[b, sb], [a, sa]] as const;
    for (const [side, s] of order) await measure(side, urls, `r${r}`, s);
    process.stdout.write(`  round ${r + 1}/${ROUNDS}\r`);
  }
  return { label, a: { name: a.name, ...sa }, b: { name: b.name, ...sb } };
}

// ---------------------------------------------------------------------------------------------
// The sides.

/** Run `fn` over `items` with `n` in flight. */
async function pool<T>(items: T[], n: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  let i = 0;
  await Promise.all(Array.from({ length: n }, async () => {
    while (i < items.length) await fn(items[i++]);
  }));
}

const site = await startFixtureSite({ staticPages: STATIC_PAGES });
const staticUrls = Array.from({ length: STATIC_PAGES }, (_, i) => `${site.baseUrl}/pages/${i + 1}`);
const richUrls = Array.from({ length: RICH_PAGES }, (_, i) => `${site.baseUrl}/js-rich/${i + 1}`);
const staticMarker = (u: string) => `Static page ${u.split('/').pop()}`;
const richMarker = (u: string) => `rich-marker-${u.split('/').pop()}`;
// PEERS_BROWSER_PAGES=static: the browser arm on the static pages instead (no late content, so
// Crawlee only waits for `load`; Gleaner still applies its quiet window).
const STATIC_BROWSER = process.env.PEERS_BROWSER_PAGES === 'static';
const browserUrls = STATIC_BROWSER ? staticUrls.slice(0, RICH_PAGES) : richUrls;
const browserMarker = STATIC_BROWSER ? staticMarker : richMarker;

/** Gleaner's own additions to the headless shell's flags, given to Crawlee too unless told (see above). */
const crawleeExtraFlags = process.env.PEERS_CRAWLEE_FLAGS === 'package' || process.env.GLEANER_CHROMIUM_PATH ? [] : SPARTICUZ_EXTRA_FLAGS;
const chromium = process.env.GLEANER_CHROMIUM_PATH
  ? { executablePath: process.env.GLEANER_CHROMIUM_PATH, args: ['--headless=new', '--no-sandbox'], env: process.env, headless: false as const }
  : { ...(await sparticuzExecutable()), headless: 'shell' as const };

function gleanerSide(name: string, formats: ScrapeFormat[] | undefined, engineChoice: 'http' | 'browser', check: (r: PageResult, u: string) => boolean): Side {
  const guard = new EgressGuard({ allow: [`127.0.0.1:${site.port}`], userAgent: UA });
  const robots = new RobotsPolicy({
    userAgent: UA,
    fetch: async (u) => {
      const r = await guard.fetch(u);
      return { status: r.status, body: r.body.toString('utf8') };
    },
  });
  // The binary Crawlee gets (above): GLEANER_CHROMIUM_PATH, else the @sparticuz headless shell. Left
  // to itself the launcher would pick a system Chromium first, a different (heavier) browser.
  const launcher = new LocalChromiumLauncher(process.env.GLEANER_CHROMIUM_PATH ? { executablePath: process.env.GLEANER_CHROMIUM_PATH } : { binary: 'sparticuz' });
  const engine = createEngine({
    guard,
    robots,
    browser: (signal) => BrowserSession.start({ launcher, guard, userAgent: UA, signal }),
    policy: { mode: 'open', domains: [] },
    challengePolicy: 'skip_page',
    userAgent: UA,
  });
  let pid: number | undefined;
  return {
    name,
    async pass(urls) {
      let ok = 0;
      await pool(urls, CONCURRENCY, async (u) => {
        const r = await engine.scrapePage(u, { engine: engineChoice, ...(formats ? { formats } : {}) });
        if (check(r, u)) ok++;
      });
      if (engineChoice === 'browser' && pid === undefined) pid = (await engine.browserSession()).browser.pid;
      return ok;
    },
    browserPids: () => (pid ? [pid] : []),
    async close() {
      await engine.close();
      await guard.close();
    },
  };
}

/**
 * A Crawlee crawler kept alive across passes (`keepAlive`), so its browser and pools stay warm
 * like Gleaner's engine: each pass adds its requests (unique keys per pass) and waits until all
 * were handled.
 */
interface Crawler {
  run(): Promise<unknown>;
  addRequests(r: { url: string; uniqueKey: string }[]): Promise<unknown>;
  teardown(): Promise<void>;
  autoscaledPool?: { notify(): void };
}
function crawleeSide(name: string, make: (onDone: (ok: boolean) => void, config: InstanceType<typeof Configuration>) => Crawler, pids: () => number[] = () => []): Side {
  const config = new Configuration({ persistStorage: false, purgeOnStart: true, storageClientOptions: { persistStorage: false, localDataDirectory: storageDir } });
  let handled = 0;
  let good = 0;
  let waiter: (() => void) | undefined;
  let target = Infinity;
  const crawler = make((ok) => {
    handled++;
    if (ok) good++;
    if (handled >= target) waiter?.();
  }, config);
  const running = crawler.run();
  return {
    name,
    async pass(urls, tag) {
      const before = good;
      target = handled + urls.length;
      const done = new Promise<void>((r) => (waiter = r));
      await crawler.addRequests(urls.map((u) => ({ url: u, uniqueKey: `${u}#${tag}` })));
      // An idle pool looks for work every 0.5 s; start the pass now.
      crawler.autoscaledPool?.notify();
      await done;
      return good - before;
    },
    browserPids: pids,
    async close() {
      await crawler.teardown();
      await running.catch(() => {});
    },
  };
}

const crawleeCommon = { keepAlive: true, minConcurrency: CONCURRENCY, maxConcurrency: CONCURRENCY, maxRequestRetries: 1 };

function cheerioHtmlSide(): Side {
  return crawleeSide('CheerioCrawler (body)', (onDone, config) => new CheerioCrawler({
    ...crawleeCommon,
    requestHandler: async ({ request, body }) => {
      const html = String(body);
      onDone(html.includes(staticMarker(request.url)));
    },
    failedRequestHandler: async () => onDone(false),
  }, config));
}

const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe']);

/** What a Crawlee user writes for Gleaner's default formats: markdown, text, links, metadata. */
function crawleeDefaultFormats($: CheerioAPI, url: string) {
  // Links, text and metadata read the whole page first; markdown then drops the navigation.
  const text = $('body').text().replace(/\s+/g, ' ').trim();
  const links = [...new Set($('a[href]').map((_, a) => { try { return new URL($(a).attr('href')!, url).href; } catch { return null; } }).get().filter(Boolean))];
  const metadata = {
    title: $('title').text(),
    description: $('meta[name="description"]').attr('content') ?? null,
    canonical: $('link[rel="canonical"]').attr('href') ?? null,
    lang: $('html').attr('lang') ?? null,
    og: Object.fromEntries($('meta[property^="og:"]').map((_, m) => [[$(m).attr('property')!.slice(3), $(m).attr('content')]]).get()),
  };
  const main = $('main').first().length ? $('main').first() : $('body');
  main.find('nav, aside, script, style').remove();
  const markdown = turndown.turndown($.html(main));
  return { markdown, text, links, metadata };
}

function cheerioMarkdownSide(): Side {
  return crawleeSide('CheerioCrawler + turndown', (onDone, config) => new CheerioCrawler({
    ...crawleeCommon,
    requestHandler: async ({ request, $ }) => {
      const r = crawleeDefaultFormats($ as unknown as CheerioAPI, request.loadedUrl ?? request.url); // Crawlee bundles an older cheerio
      onDone(r.markdown.includes(`# ${staticMarker(request.url)}`) && r.text.length > 0 && r.links.length > 0 && Boolean(r.metadata.title));
    },
    failedRequestHandler: async (_ctx, err) => {
      console.error('failed:', err.message);
      onDone(false);
    },
  }, config));
}

/** What a Crawlee user writes for markdown: turndown on the page body, nothing more. */
function cheerioPlainMarkdownSide(): Side {
  return crawleeSide('CheerioCrawler + turndown (body)', (onDone, config) => new CheerioCrawler({
    ...crawleeCommon,
    requestHandler: async ({ request, $ }) => {
      const markdown = turndown.turndown(($ as unknown as CheerioAPI).html(($ as unknown as CheerioAPI)('body')));
      onDone(markdown.includes(`# ${staticMarker(request.url)}`));
    },
    failedRequestHandler: async (_ctx, err) => {
      console.error('failed:', err.message);
      onDone(false);
    },
  }, config));
}

function puppeteerSide(markdown = false): Side {
  const pids = new Set<number>();
  return crawleeSide(markdown ? 'PuppeteerCrawler + turndown' : 'PuppeteerCrawler', (onDone, config) => new PuppeteerCrawler({
    ...crawleeCommon,
    launchContext: {
      launcher: puppeteer,
      useChrome: false,
      userAgent: UA,
      launchOptions: { executablePath: chromium.executablePath, args: hardenedArgs([...chromium.args, ...crawleeExtraFlags]), env: chromium.env, headless: chromium.headless } as never,
    },
    headless: chromium.headless as never,
    browserPoolOptions: {
      useFingerprints: false,
      postLaunchHooks: [async (_id, controller) => {
        const pid = (controller.browser as unknown as { process(): { pid?: number } | null }).process()?.pid;
        if (pid) pids.add(pid);
      }],
    },
    requestHandler: async ({ request, page }) => {
      const html = STATIC_BROWSER
        ? await page.content()
        : // A Crawlee user who knows the page renders late waits for it (Gleaner is not told).
          await page.waitForSelector('#marker', { timeout: 15_000 }).then(() => page.content());
      if (!markdown) return onDone(html.includes(browserMarker(request.url)));
      const r = crawleeDefaultFormats(loadHtml(html), request.url);
      onDone(r.markdown.includes(browserMarker(request.url)) && r.links.length > 0 && Boolean(r.metadata.title));
    },
    failedRequestHandler: async () => onDone(false),
  }, config), () => [...pids]);
}

// ---------------------------------------------------------------------------------------------
// Run.

const t0 = performance.now();
type Row = Awaited<ReturnType<typeof compare>>;
const rows: { row: Row; target: number }[] = [];
const sides: Side[] = [];
const track = (s: Side) => (sides.push(s), s);
/** Close both sides of an arm before the next one starts (an idle crawler still has timers). */
const closeAll = async () => {
  for (const s of sides.splice(0)) await s.close().catch((e) => console.error(`close ${s.name}:`, e));
};
try {
  if (ARMS.has('http')) {
    const a = track(gleanerSide('Gleaner http [html]', ['html'], 'http', (r, u) => Boolean(r.html?.includes(staticMarker(u)))));
    const b = track(cheerioHtmlSide());
    rows.push({ row: await compare('http returning HTML', a, b, staticUrls), target: 1.5 });
    await closeAll();
  }
  if (ARMS.has('markdown')) {
    const a = track(gleanerSide('Gleaner http default formats', undefined, 'http', (r, u) => Boolean(r.markdown?.includes(`# ${staticMarker(u)}`) && r.text && r.links?.length && r.metadata?.title)));
    const b = track(cheerioMarkdownSide());
    rows.push({ row: await compare('default formats (markdown, text, links, metadata)', a, b, staticUrls), target: 1.2 });
    await closeAll();
  }
  if (ARMS.has('markdown-plain')) {
    const a = track(gleanerSide('Gleaner http default formats', undefined, 'http', (r, u) => Boolean(r.markdown?.includes(`# ${staticMarker(u)}`) && r.text && r.links?.length && r.metadata?.title)));
    const b = track(cheerioPlainMarkdownSide());
    // Issue 38's speed line: the default formats at >= 1.5x CheerioCrawler + turndown of the whole page.
    rows.push({ row: await compare('default formats vs turndown on the body', a, b, staticUrls), target: 1.5 });
    await closeAll();
  }
  if (ARMS.has('browser')) {
    const a = track(gleanerSide('Gleaner browser [html]', ['html'], 'browser', (r, u) => Boolean(r.html?.includes(browserMarker(u)))));
    const b = track(puppeteerSide());
    rows.push({ row: await compare(STATIC_BROWSER ? 'browser on static pages' : 'browser on JS pages with subresources', a, b, browserUrls), target: 2.5 });
    await closeAll();
  }
  if (ARMS.has('browser-md')) {
    // Not in the default set (it adds ~40 s): the browser with default formats on both sides.
    const a = track(gleanerSide('Gleaner browser default formats', undefined, 'browser', (r, u) => Boolean(r.markdown?.includes(browserMarker(u)) && r.links?.length && r.metadata?.title)));
    const b = track(puppeteerSide(true));
    rows.push({ row: await compare('browser, default formats (markdown, text, links, metadata)', a, b, browserUrls), target: 1.5 });
    await closeAll();
  }
} finally {
  await closeAll();
}

const memoryRows: string[] = [];
if (process.env.PEERS_BROWSER_1000 === '1') {
  // Memory: the browser arm over 1,000 pages, RSS every 100 pages.
  const side = gleanerSide('Gleaner browser [html]', ['html'], 'browser', (r, u) => Boolean(r.html?.includes(richMarker(u))));
  try {
    const all = Array.from({ length: 1000 }, (_, i) => `${site.baseUrl}/js-rich/${i + 1}`);
    let ok = 0;
    const started = performance.now();
    for (let i = 0; i < all.length; i += 100) {
      ok += await side.pass(all.slice(i, i + 100), 'mem');
      const b = browserUsage(side.browserPids());
      memoryRows.push(`${String(i + 100).padStart(5)} pages  node RSS ${mb(process.memoryUsage.rss())}  chromium RSS ${mb(b.rss)}  ok ${ok}`);
    }
    memoryRows.push(`1000 pages in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await side.close();
  }
}

await site.close();
rmSync(storageDir, { recursive: true, force: true });

function mb(n: number) {
  return `${(n / 1024 / 1024).toFixed(0)} MB`.padStart(7);
}
const pps = (s: ArmStats) => (s.pages / (s.ms / 1000));
const cpuPer = (s: ArmStats) => (s.nodeCpuMs / s.pages);
const bCpuPer = (s: ArmStats) => (s.browserCpuMs / s.pages);
console.log(`\nPeers bench: concurrency ${CONCURRENCY}, ${ROUNDS} timed passes per side after a warm-up, alternating A B B A`);
console.log(`Chromium: ${chromium.executablePath}\n`);
console.log('| arm | pages/s | node CPU ms/page | browser CPU ms/page | peak node RSS | peak browser RSS | marker ok |');
console.log('|---|---|---|---|---|---|---|');
for (const { row } of rows) {
  for (const s of [row.a, row.b]) {
    console.log(`| ${s.name} | ${pps(s).toFixed(1)} | ${cpuPer(s).toFixed(2)} | ${s.browserCpuMs ? bCpuPer(s).toFixed(1) : '-'} | ${mb(s.peakNodeRss).trim()} | ${s.peakBrowserRss ? mb(s.peakBrowserRss).trim() : '-'} | ${s.ok}/${s.pages} |`);
  }
}
console.log('\n| comparison | Gleaner/Crawlee pages/s | Crawlee/Gleaner CPU per page (node+browser) | target | |');
console.log('|---|---|---|---|---|');
let missed = false;
for (const { row, target } of rows) {
  const ratio = pps(row.a) / pps(row.b);
  const cpuRatio = (cpuPer(row.b) + bCpuPer(row.b)) / (cpuPer(row.a) + bCpuPer(row.a));
  const correct = row.a.ok === row.a.pages && row.b.ok === row.b.pages;
  const ok = ratio >= target && correct;
  if (!ok) missed = true;
  console.log(`| ${row.label} | ${ratio.toFixed(2)} | ${cpuRatio.toFixed(2)} | >= ${target} | ${ok ? 'ok' : correct ? 'MISSED' : 'CONTENT MISMATCH'} |`);
}
if (THREADS) {
  for (const { row } of rows) for (const s of [row.a, row.b]) {
    if (!s.threads.size) continue;
    const top = [...s.threads].map(([k, ms]) => [k, ms / s.pages] as const).filter(([, v]) => v >= 0.5).sort((x, y) => y[1] - x[1]);
    console.log(`\n${s.name}: Chromium CPU ms a page by thread (>= 0.5)\n${top.map(([k, v]) => `  ${v.toFixed(1).padStart(6)}  ${k}`).join('\n')}`);
  }
}
if (memoryRows.length) console.log(`\nBrowser arm over 1,000 pages:\n${memoryRows.join('\n')}`);
console.log(`\n(total ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
process.exitCode = missed ? 1 : 0;
