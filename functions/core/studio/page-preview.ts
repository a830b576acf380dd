import * as z from 'zod';
import { loadHtml } from '../content/load-html.js';
import { AppError, badRequest } from '../errors.js';
import { executeRunbook } from '../scrapers/runbook.js';
import type { Engine } from '../engine/pipeline.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import type { Tab } from '../../ports/browser.js';
import { ELEMENT_BOXES_SCRIPT, MAX_BOXES } from './element-boxes-script.js';
import { MAX_SNAPSHOT_BYTES, previewSteps, type PreviewRequest } from './preview-request.js';

/** Taller pages are shown as their first screen only (the response stays a few MB at most). */
const MAX_FULL_PAGE_HEIGHT = 4000;

const boxSchema = z.object({
  selector: z.string().min(1).max(500),
  tag: z.string().max(40),
  text: z.string().max(200),
  x: z.number().finite(),
  y: z.number().finite(),
  w: z.number().finite().nonnegative(),
  h: z.number().finite().nonnegative(),
  group: z.object({ selector: z.string().min(1).max(500), count: z.number().int() }).nullable(),
});
const pageInfoSchema = z.object({
  width: z.number().finite(),
  height: z.number().finite(),
  viewport: z.object({ width: z.number().finite(), height: z.number().finite() }),
  title: z.string().max(2000).catch(''),
  elements: z.array(z.unknown()).transform((a) => a.slice(0, MAX_BOXES)),
});

export type PreviewBox = z.infer<typeof boxSchema>;

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
): Promise<PagePreview | { failed: true; status: string; error: { code: string; message: string } | null; log: unknown[] }> {
  let preview: PagePreview | undefined;
  const res = await executeRunbook(previewSteps(req), {
    engine,
    policy,
    input: req.input,
    resolveSecret: () => Promise.reject(badRequest('The preview never fills secrets')),
    signal,
    inspect: async (tab) => {
      preview = await readPage(tab, req.url);
    },
  });
  if (!preview) return { failed: true, status: res.status, error: res.error, log: res.log };
  preview.log = res.log;
  return preview;
}

async function readPage(tab: Tab, url: string): Promise<PagePreview> {
  // What the page's own script left of ours is checked like any input: a page that breaks the
  // measuring gets a clear 422, never a 500 or a validation message about our internals.
  const measured = pageInfoSchema.safeParse(await tab.evaluate(ELEMENT_BOXES_SCRIPT).catch(() => null));
  if (!measured.success) throw new AppError(422, 'preview_failed', `The page at ${tab.url()} could not be measured (its scripts changed what the preview reads)`);
  const info = measured.data;
  const fullPage = info.height <= MAX_FULL_PAGE_HEIGHT;
  const screenshot = await tab.screenshot({ fullPage });
  const height = fullPage ? info.height : info.viewport.height;
  const html = await tab.content();
  const $ = loadHtml(html);
  const count = (sel: string) => {
    try {
      return $(sel).length;
    } catch {
      return -1;
    }
  };
  const elements: PreviewBox[] = [];
  for (const raw of info.elements) {
    const b = boxSchema.safeParse(raw);
    if (!b.success) continue;
    const box = b.data;
    if (box.y >= height || box.x >= info.width) continue; // outside the screenshot
    if (count(box.selector) !== 1) continue; // not unique in the HTML the steps read: never offered
    const group = box.group && count(box.group.selector) > 1 ? { selector: box.group.selector, count: count(box.group.selector) } : null;
    elements.push({ ...box, group });
  }
  $('script, style').text('');
  const snapshot = $.html();
  return {
    url,
    final_url: tab.url(),
    title: info.title,
    width: Math.round(info.width),
    height: Math.round(height),
    full_page: fullPage,
    screenshot,
    elements,
    html: Buffer.byteLength(snapshot) <= MAX_SNAPSHOT_BYTES ? snapshot : null,
    log: [],
  };
}

