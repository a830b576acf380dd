import * as z from 'zod';
import { loadHtml } from '../content/load-html.js';
import { selectorComplexityProblem } from '../limits/selector-limits.js';
import { MAX_BOXES, MAX_ITEM_FIELDS } from './element-boxes-script.js';

const selector = z.string().min(1).max(500);
const itemSchema = z.object({
  selector,
  count: z.number().int(),
  fields: z
    .array(z.object({ name: z.string().min(1).max(40), selector, attr: z.enum(['src', 'href']).optional(), sample: z.string().max(200).catch('') }))
    .max(MAX_ITEM_FIELDS)
    .catch([]),
});
const boxSchema = z.object({
  selector,
  tag: z.string().max(40),
  text: z.string().max(200),
  x: z.number().finite(),
  y: z.number().finite(),
  w: z.number().finite().nonnegative(),
  h: z.number().finite().nonnegative(),
  group: z.object({ selector, count: z.number().int() }).nullable(),
  item: itemSchema.nullable().catch(null),
});

/** One box of a preview: an element, its verified selector, its kind's group and the repeated item it is (in). */
export type PreviewBox = z.infer<typeof boxSchema>;
/** A repeated item (siblings of the same shape): item selector, how many, and fields inside it. */
export type PreviewItem = z.infer<typeof itemSchema>;

/** What {@link verifyBoxes} takes: the page's HTML and what the in-page script proposed. */
export interface VerifyBoxesInput {
  html: string;
  elements: unknown[];
  /** Screenshot size: boxes outside it are dropped. */
  width: number;
  height: number;
  /**
   * Time to spend checking (ms): boxes not reached by then are left out (document order, so the
   * top of the page is offered first) and `truncated` says so. Below the budget thread's own
   * deadline, which stops whatever overruns anyway.
   */
  budgetMs?: number;
}

/**
 * Keep only the boxes whose selectors hold on the page's HTML with the engine's selector engine
 * (what `extract` steps and css-extract run): a box's selector matches exactly one element, its
 * group more than one, its repeated item more than one with each proposed field inside it. The
 * selectors come from page data (the page's ids, classes and attributes shaped them), so each is
 * first held to the static limits a tenant's selector gets (selector-limits.ts) and dropped past
 * them; the caller runs this under the selector budget (page-preview.ts). Returns the boxes, the
 * HTML with scripts and styles emptied (the snapshot Studio counts on), and whether the check
 * stopped at `budgetMs` before every box was seen.
 */
export function verifyBoxes(input: VerifyBoxesInput): { elements: PreviewBox[]; snapshot: string; truncated: boolean } {
  const until = Date.now() + (input.budgetMs ?? Infinity);
  let truncated = false;
  const $ = loadHtml(input.html);
  const counts = new Map<string, number>();
  const count = (sel: string): number => {
    let n = counts.get(sel);
    if (n !== undefined) return n;
    try {
      n = selectorComplexityProblem(sel) ? -1 : $(sel).length;
    } catch {
      n = -1;
    }
    counts.set(sel, n);
    return n;
  };
  const items = new Map<string, PreviewItem | null>();
  const verifyItem = (item: PreviewItem | null): PreviewItem | null => {
    if (!item) return null;
    const key = JSON.stringify(item);
    if (items.has(key)) return items.get(key)!;
    const n = count(item.selector);
    const fields = n > 1 ? item.fields.filter((f) => !selectorComplexityProblem(f.selector) && count(`${item.selector} ${f.selector}`) > 0) : [];
    const out = n > 1 ? { selector: item.selector, count: n, fields } : null;
    items.set(key, out);
    return out;
  };
  const elements: PreviewBox[] = [];
  for (const raw of input.elements.slice(0, MAX_BOXES)) {
    // A positional selector costs a scan of the siblings per candidate: thousands of rows make
    // each count slow, so the check stops at its budget with what it has verified.
    if (Date.now() > until) {
      truncated = true;
      break;
    }
    const b = boxSchema.safeParse(raw);
    if (!b.success) continue;
    const box = b.data;
    if (box.y >= input.height || box.x >= input.width) continue; // outside the screenshot
    if (count(box.selector) !== 1) continue; // not unique in the HTML the steps read: never offered
    const g = box.group ? count(box.group.selector) : 0;
    elements.push({ ...box, group: box.group && g > 1 ? { selector: box.group.selector, count: g } : null, item: verifyItem(box.item) });
  }
  $('script, style').text('');
  return { elements, snapshot: $.html(), truncated };
}
