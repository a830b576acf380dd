import * as z from 'zod';
import { AppError, badRequest } from '../errors.js';
import { isTooComplex } from '../limits/budget.js';
import { runBudgeted } from '../limits/budget-pool.js';
import { executeRunbook } from '../scrapers/runbook.js';
import type { Engine } from '../engine/pipeline.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import type { Tab } from '../../ports/browser.js';
import { ELEMENT_BOXES_SCRIPT, MAX_BOXES, SCRIPT_BUDGET_MS } from './element-boxes-script.js';
import { verifyBoxes, type PreviewBox } from './verify-boxes.js';
import { MAX_SNAPSHOT_BYTES, previewSteps, type PreviewRequest } from './preview-request.js';

/** Taller pages are shown as their first screen only (the response stays a few MB at most). */
const MAX_FULL_PAGE_HEIGHT = 4000;

const pageInfoSchema = z.object({
  width: z.number().finite(),
  height: z.number().finite(),
  viewport: z.object({ width: z.number().finite(), height: z.number().finite() }),
  title: z.string().max(2000).catch(''),
  truncated: z.boolean().catch(false),
  elements: z.array(z.unknown()).transform((a) => a.slice(0, MAX_BOXES)),
});

export type { PreviewBox } from './verify-boxes.js';

/** Longest the in-page script may run before the browser terminates it (ms). */
const MEASURE_TIMEOUT_MS = SCRIPT_BUDGET_MS + 2_000;
/** Longest the worker spends checking the boxes' selectors on the page's HTML (ms): the thread's deadline. */
export const VERIFY_DEADLINE_MS = 6_000;
/** Time the check gives itself (ms); boxes not reached by then are not offered (see verifyBoxes). */
const VERIFY_BUDGET_MS = 3_500;

/** What a preview returns: a PNG of the page and the boxes of its visible elements. */
export interface PagePreview {
  url: string;
  final_url: string;
  title: string;
  /** Size of the screenshot in CSS pixels; boxes are in the same coordinates. */
  width: number;
  height: number;
  full_page: boolean;
  /** base64 PNG */
  screenshot: string;
  elements: PreviewBox[];
  /** The page's HTML as the steps see it (scripts and styles emptied), for counting matches; null when too large. */
  html: string | null;
  log: unknown[];
  /** Pages the preview fetched (the steps' navigations): what it is billed. */
  pages_done: number;
  /** True when only part of the page's elements could be measured and checked in time (a very long list). */
  truncated: boolean;
}

/**
 * Render a page the way a runbook sees it (same engine: target policy, egress guard, robots,
 * challenge detection), then read it: a screenshot and the boxes of its visible elements, each
 * with a selector that matches exactly that element, checked twice: in the page and on its HTML
 * with cheerio (the engine `extract` steps use), so a page's script cannot make a selector lie.
 */
export async function previewPage(
  engine: Engine,
  policy: TargetPolicy,
  req: PreviewRequest,
  signal?: AbortSignal,
): Promise<PagePreview | { failed: true; status: string; error: { code: string; message: string } | null; log: unknown[]; pages_done: number }> {
  let preview: PagePreview | undefined;
  const res = await executeRunbook(previewSteps(req), {
    engine,
    policy,
    input: req.input,
    resolveSecret: () => Promise.reject(badRequest('The preview never fills secrets')),
    signal,
    inspect: async (tab) => {
      preview = await readPage(tab, req.url, engine.owner);
    },
  });
  if (!preview) return { failed: true, status: res.status, error: res.error, log: res.log, pages_done: res.pages_done };
  preview.log = res.log;
  preview.pages_done = res.pages_done;
  return preview;
}

async function readPage(tab: Tab, url: string, owner: string | undefined): Promise<PagePreview> {
  // Measured in an isolated world (the page's scripts cannot rewrite the script or the DOM
  // functions it calls), terminated past MEASURE_TIMEOUT_MS. What comes back is still checked
  // like any input: a page that breaks the measuring gets a clear 422, never a 500.
  const measured = pageInfoSchema.safeParse(await tab.evaluateIsolated(ELEMENT_BOXES_SCRIPT, { timeoutMs: MEASURE_TIMEOUT_MS }).catch(() => null));
  if (!measured.success) throw new AppError(422, 'preview_failed', `The page at ${tab.url()} could not be measured (it did not finish in ${MEASURE_TIMEOUT_MS / 1000} s, or its content broke what the preview reads)`);
  const info = measured.data;
  const fullPage = info.height <= MAX_FULL_PAGE_HEIGHT;
  const screenshot = await tab.screenshot({ fullPage });
  const height = fullPage ? info.height : info.viewport.height;
  const html = await tab.content();
  // The selectors are counted on the page's HTML on a budget thread, in the tenant's turn: each
  // within the static limits of a tenant's selector, all of them within VERIFY_DEADLINE_MS.
  const input = { html, elements: info.elements, width: info.width, height, budgetMs: VERIFY_BUDGET_MS };
  let checked: { elements: PreviewBox[]; snapshot: string; truncated: boolean };
  try {
    checked = await runBudgeted('selector', 'studio.boxes', input, { deadlineMs: VERIFY_DEADLINE_MS, owner, inline: () => verifyBoxes(input) });
  } catch (err) {
    if (!isTooComplex(err)) throw err;
    throw new AppError(422, 'preview_failed', `The elements of ${tab.url()} could not be checked within ${VERIFY_DEADLINE_MS / 1000} s (the page is too large or too complex to pick from)`);
  }
  return {
    url,
    final_url: tab.url(),
    title: info.title,
    width: Math.round(info.width),
    height: Math.round(height),
    full_page: fullPage,
    screenshot,
    elements: checked.elements,
    truncated: checked.truncated || info.truncated,
    html: Buffer.byteLength(checked.snapshot) <= MAX_SNAPSHOT_BYTES ? checked.snapshot : null,
    log: [],
    pages_done: 0,
  };
}
