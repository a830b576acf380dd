/**
 * `npm run bench -- dynamic` (issue 30): the dynamic web, on the fixture site's `/dynamic/*` pages
 * (test/fixtures/dynamic/dynamic-routes.ts): click-to-load content, infinite scroll, consent walls
 * (a platform's root, a German modal with backdrop and scroll lock, a banner in an open shadow
 * root, a consent iframe, a newsletter modal), shadow-DOM components and same-site iframes.
 *
 * Two sides read every page once, in the same run, on the same Chromium build:
 *   Gleaner   : the browser engine, default formats, with `actions` where the page needs them
 *               (click + wait; scroll to the bottom).
 *   Crawlee   : PuppeteerCrawler doing the same interactions in its requestHandler (page.click +
 *               waitForSelector; puppeteerUtils.infiniteScroll), then turndown on the body, as
 *               its users write it.
 * Printed per side: the share of the expected text found in the markdown, and the share of the
 * consent and sign-up text leaked into it (lower is better). Quality, not time: no timing ratio.
 */
import { existsSync } from 'node:fs';
import { startFixtureSite } from '../test/fixtures/site/server.js';
import { CONSENT_TEXTS, CROSS_SITE_TEXT, DYNAMIC_EXPECTED } from '../test/fixtures/dynamic/dynamic-routes.js';
import { EgressGuard } from '../functions/core/governance/egress-guard.js';
import { RobotsPolicy } from '../functions/core/governance/robots.js';
import { BrowserSession } from '../functions/core/engine/fetch-browser.js';
import { createEngine } from '../functions/core/engine/pipeline.js';
import type { PageAction } from '../functions/core/scrapers/page-actions-schema.js';

process.env.CRAWLEE_STORAGE_DIR ??= `/tmp/gleaner-bench-dynamic-${process.pid}`;
const { PuppeteerCrawler, puppeteerUtils } = await import('@crawlee/puppeteer');
const { Configuration } = await import('@crawlee/core');
const puppeteer = (await import('puppeteer-core')).default;
const { default: TurndownService } = await import('turndown');
const { LocalChromiumLauncher, SYSTEM_CHROMIUM_PATHS, sparticuzExecutable } = await import('../functions/adapters/local/chromium-launcher.js');

const UA = 'GleanerBench/0.1 (+https://gleaner.invalid; bench)';
const site = await startFixtureSite();
const url = (p: string) => `${site.baseUrl}${p}`;

/** Interactions per page (the same on both sides). */
const ACTIONS: Record<string, PageAction[]> = {
  '/dynamic/click-load': [{ type: 'click', selector: '#more' }, { type: 'wait', selector: '#chapter p', ms: 5_000 }],
  '/dynamic/infinite': [{ type: 'scroll', amount: 'bottom' }],
};
const PATHS = Object.keys(DYNAMIC_EXPECTED);

// One Chromium build for both sides: a system one when installed, else the Lambda binary.
const system = SYSTEM_CHROMIUM_PATHS.find((p) => existsSync(p));
const binary = system ? 'system' : 'sparticuz';
const chromium = system
  ? { executablePath: system, args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'], env: process.env, headless: true as const }
  : { ...(await sparticuzExecutable()), headless: 'shell' as const };

interface Score {
  found: number;
  expected: number;
  leaked: number;
  consent: number;
  crossSite: number;
}

function score(markdownByPath: Map<string, string>): Score {
  const s: Score = { found: 0, expected: 0, leaked: 0, consent: 0, crossSite: 0 };
  for (const p of PATHS) {
    const md = markdownByPath.get(p) ?? '';
    for (const t of DYNAMIC_EXPECTED[p]!) {
      s.expected++;
      if (md.includes(t)) s.found++;
    }
    for (const t of CONSENT_TEXTS[p] ?? []) {
      s.consent++;
      if (md.includes(t)) s.leaked++;
    }
    if (md.includes(CROSS_SITE_TEXT)) s.crossSite++;
  }
  return s;
}

async function gleaner(): Promise<Map<string, string>> {
  const guard = new EgressGuard({ allow: [`127.0.0.1:${site.port}`], userAgent: UA });
  const robots = new RobotsPolicy({ userAgent: UA, fetch: async (u) => {
    const r = await guard.fetch(u);
    return { status: r.status, body: r.body.toString('utf8') };
  } });
  const launcher = new LocalChromiumLauncher({ binary });
  const engine = createEngine({
    guard, robots, policy: { mode: 'open', domains: [] }, challengePolicy: 'skip_page', userAgent: UA,
    browser: (signal) => BrowserSession.start({ launcher, guard, userAgent: UA, signal }),
  });
  const out = new Map<string, string>();
  try {
    for (const p of PATHS) {
      const r = await engine.scrapePage(url(p), { engine: 'browser', formats: ['markdown'], ...(ACTIONS[p] ? { actions: ACTIONS[p] } : {}) });
      out.set(p, r.markdown ?? '');
    }
  } finally {
    await engine.close();
    await guard.close();
  }
  return out;
}

async function crawlee(): Promise<Map<string, string>> {
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'template']);
  const out = new Map<string, string>();
  const crawler = new PuppeteerCrawler({
    maxConcurrency: 1,
    maxRequestRetries: 0,
    launchContext: {
      launcher: puppeteer,
      useChrome: false,
      userAgent: UA,
      launchOptions: { executablePath: chromium.executablePath, args: chromium.args, env: chromium.env, headless: chromium.headless } as never,
    },
    headless: chromium.headless as never,
    browserPoolOptions: { useFingerprints: false },
    requestHandler: async ({ request, page }) => {
      const p = new URL(request.url).pathname;
      if (p === '/dynamic/click-load') {
        await page.click('#more');
        await page.waitForSelector('#chapter p', { timeout: 5_000 });
      }
      if (p === '/dynamic/infinite') await puppeteerUtils.infiniteScroll(page, { timeoutSecs: 10 });
      const body = await page.evaluate(() => document.body.outerHTML);
      out.set(p, turndown.turndown(body));
    },
  }, new Configuration({ persistStorage: false }));
  await crawler.run(PATHS.map((p) => url(p)));
  await crawler.teardown();
  return out;
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(0)}%` : 'n/a');
const line = (name: string, s: Score) =>
  `${name.padEnd(32)} expected text found ${pct(s.found, s.expected).padStart(5)} (${s.found}/${s.expected})   consent text leaked ${pct(s.leaked, s.consent).padStart(5)} (${s.leaked}/${s.consent})   cross-site frame in markdown: ${s.crossSite}`;

try {
  console.log(`Chromium: ${binary} (${chromium.executablePath}); ${PATHS.length} pages\n`);
  const g = score(await gleaner());
  const c = score(await crawlee());
  console.log(line('Gleaner (browser + actions)', g));
  console.log(line('PuppeteerCrawler + turndown', c));
} finally {
  await site.close();
}
process.exit(0);
