import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'puppeteer-core';

/**
 * A small accessibility check run inside the page (axe-core runs beside them, see axeViolations; these are
 * the checks that matter most for the console, computed from the DOM and its computed styles):
 * - form controls have an accessible name (label, aria-label or aria-labelledby),
 * - images have alt text, buttons and links have a name,
 * - ids are unique (labels and aria references point at one element),
 * - one main landmark, one h1, heading levels do not skip (h2 -> h4),
 * - text contrast (WCAG AA: 4.5:1, 3:1 for large text) of every visible text element against the
 *   background it is drawn on.
 * Returns the violations, each "rule: what (where)"; an empty list passes.
 */
export function a11yViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element) => {
      const r = (el as HTMLElement).getBoundingClientRect();
      const cs = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && cs.display !== 'none' && !(el as HTMLElement).closest('[hidden], [aria-hidden="true"]');
    };
    const where = (el: Element) => {
      const id = el.id ? `#${el.id}` : '';
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : '';
      return `${el.tagName.toLowerCase()}${id}${cls} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    };
    const nameOf = (el: Element): string => {
      const aria = el.getAttribute('aria-label');
      if (aria?.trim()) return aria.trim();
      const by = el.getAttribute('aria-labelledby');
      if (by) return by.split(/\s+/).map((i) => document.getElementById(i)?.textContent ?? '').join(' ').trim();
      if ((el as HTMLInputElement).labels?.length) return Array.from((el as HTMLInputElement).labels!).map((l) => l.textContent ?? '').join(' ').trim();
      if (el.tagName === 'IMG') return el.getAttribute('alt') ?? '';
      const title = el.getAttribute('title');
      const text = (el.textContent ?? '').trim() || Array.from(el.querySelectorAll('img')).map((i) => i.getAttribute('alt') ?? '').join(' ').trim();
      return text || title?.trim() || '';
    };

    // Names
    for (const el of Array.from(document.querySelectorAll('input:not([type="hidden"]), select, textarea'))) {
      if (!visible(el) && !(el as HTMLElement).closest('details:not([open])')) continue;
      if (!nameOf(el)) out.push(`label: form control without a name (${where(el)})`);
    }
    for (const el of Array.from(document.querySelectorAll('img'))) if (!el.hasAttribute('alt')) out.push(`image-alt: img without alt (${where(el)})`);
    for (const el of Array.from(document.querySelectorAll('button, a[href], [role="tab"], [role="option"]'))) {
      if (!visible(el)) continue;
      if (!nameOf(el)) out.push(`name: ${el.tagName.toLowerCase()} without a name (${where(el)})`);
    }
    // Unique ids
    const seen = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    for (const [id, n] of seen) if (n > 1) out.push(`duplicate-id: ${id} × ${n}`);
    // Landmarks and headings
    if (document.querySelectorAll('main').length !== 1) out.push(`landmark: ${document.querySelectorAll('main').length} main elements`);
    const h1s = Array.from(document.querySelectorAll('main h1')).filter(visible);
    if (h1s.length !== 1) out.push(`heading: ${h1s.length} visible h1 in main`);
    let prev = 1;
    for (const hd of Array.from(document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')).filter(visible)) {
      if (hd.closest('.markdown')) continue; // scraped content keeps its own outline
      const level = Number(hd.tagName[1]);
      if (level > prev + 1) out.push(`heading-order: ${hd.tagName} after h${prev} (${where(hd)})`);
      prev = level;
    }
    // Contrast
    const parse = (c: string) => {
      const m = /rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/.exec(c);
      return m ? [Number(m[1]), Number(m[2]), Number(m[3]), m[4] === undefined ? 1 : Number(m[4])] : [0, 0, 0, 0];
    };
    const lum = ([r, g, b]: number[]) => {
      const f = (v: number) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
    };
    const bgOf = (el: Element | null): number[] | null => {
      const layers: number[][] = [];
      for (let e = el; e; e = e.parentElement) {
        const cs = getComputedStyle(e);
        if (cs.backgroundImage !== 'none') return null; // gradients and images: not computed here
        const c = parse(cs.backgroundColor);
        if (c[3]! > 0) {
          layers.push(c);
          if (c[3] === 1) break;
        }
      }
      let col = [255, 255, 255];
      for (const l of layers.reverse()) col = col.map((v, i) => v * (1 - l[3]!) + l[i]! * l[3]!);
      return col;
    };
    const checked = new Set<Element>();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || checked.has(el) || !(n.textContent ?? '').trim()) continue;
      checked.add(el);
      if (!visible(el) || el.closest('option, .sr-only, noscript, [disabled], .chart-plot, svg')) continue;
      const cs = getComputedStyle(el);
      const fg = parse(cs.color);
      const bg = bgOf(el);
      if (!bg) continue;
      const alpha = fg[3]! * Number(cs.opacity || 1);
      const fgc = fg.slice(0, 3).map((v, i) => v * alpha + bg[i]! * (1 - alpha));
      const l1 = lum(fgc);
      const l2 = lum(bg);
      const ratio = (Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05);
      const size = parseFloat(cs.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(cs.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5)) out.push(`contrast: ${ratio.toFixed(2)}:1 (${cs.color} on rgb(${bg.map(Math.round).join(',')})) ${where(el)}`);
    }
    return out;
  });
}

let axeSource: string | undefined;
/**
 * axe-core's serious and critical violations on the page as it stands (WCAG 2 A/AA rules), each
 * "rule: help (where)". The script is evaluated through the DevTools protocol, which the console's
 * strict CSP does not apply to, and removed with the page's next navigation.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Once per document: the console's pages are hash routes of one document, which keeps axe loaded.
  if (!(await page.evaluate(() => typeof (window as unknown as { axe?: { run?: unknown } }).axe?.run === 'function'))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(ctx: Document, o: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const r = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }, resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => String(n.target[0])).join(', ')})`);
  });
}
