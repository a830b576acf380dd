import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { isBuyLabel, phraseAvailability } from './availability.js';
import { commonAncestor, cssPath, depthOf, elementsIn, inOtherRegion, inSpecTable, isTag, textOf } from './dom-helpers.js';
import { readBreadcrumbs } from './document-breadcrumbs.js';
import { readSpecs } from './document-specs.js';
import { currencyOf, priceElements } from './price-elements.js';
import type { PageFacts } from './page-facts.js';
import type { Availability, Candidate, ProductFields, Reading } from './types.js';

/** What the document reader saw, beside the fields: does the page look like one product? */
export interface DocumentProduct extends Reading<ProductFields> {
  /** A buy button, or one price beside the title with a stock state or specifications. */
  looksLikeProduct: boolean;
}

/** Buy buttons of the page (buttons, submit inputs, button-like links), outside other products' sections. */
function buyButtons($: CheerioAPI): Element[] {
  const out: Element[] = [];
  $('button, input[type="submit"], input[type="button"], a[role="button"], a[class*="btn"], a[class*="button"], [class*="add-to-cart"], [id*="add-to-cart"], [name="add-to-cart"], [data-action*="cart"]').each((_, n) => {
    const el = n as Element;
    const label = el.name === 'input' ? (el.attribs.value ?? '') : textOf(el, 100) || (el.attribs['aria-label'] ?? el.attribs.title ?? '');
    if (!isBuyLabel(label) && !/add-?to-?cart/i.test(`${el.attribs.class ?? ''} ${el.attribs.id ?? ''} ${el.attribs.name ?? ''}`)) return;
    if (inOtherRegion(el)) return;
    if (out.some((o) => o === el || isInside(el, o))) return;
    out.push(el);
  });
  return out;
}

const isInside = (el: Element, anc: Element): boolean => {
  for (let n = el.parent; n; n = n.parent) if (n === anc) return true;
  return false;
};
const disabled = (el: Element): boolean => el.attribs.disabled !== undefined || el.attribs['aria-disabled'] === 'true' || /(^|\s)(disabled|is-disabled)(\s|$)/.test(el.attribs.class ?? '');

/** The page's title element: its single h1 outside navigation. */
function titleElement($: CheerioAPI): Element | undefined {
  const h1 = ($('h1').toArray() as Element[]).filter((el) => !inOtherRegion(el) && textOf(el, 300));
  return h1.length === 1 ? h1[0] : undefined;
}

/**
 * The product as the document shows it, without structured data: the price beside the buy button
 * (or beside the title), the stock state written there, SKU/MPN/GTIN from specification tables,
 * breadcrumbs. Fails closed: several different current prices, a range or a "from" price give no
 * price and a warning; a struck-out price is only ever the regular price.
 */
export function readDocumentProduct($: CheerioAPI, facts: PageFacts): DocumentProduct {
  const r: DocumentProduct = { fields: {}, warnings: [], looksLikeProduct: false };
  const c = <T>(value: T, path: string, confidence: number): Candidate<T> => ({ value, source: 'document', path, confidence });
  const h1 = titleElement($);
  const buttons = buyButtons($);
  // The buy box: around the buy button nearest to the title, else the title's surroundings.
  let box: Element | undefined;
  let button: Element | undefined;
  if (buttons.length) {
    const scored = buttons.map((b) => ({ b, ca: h1 ? commonAncestor(h1, b) : null })).map((x) => ({ ...x, depth: x.ca ? depthOf(x.ca) : 0 }));
    scored.sort((a, b) => b.depth - a.depth);
    const best = scored[0];
    if (scored.length > 1 && scored[1].depth === best.depth && !h1) r.warnings.push('several buy buttons and no single title: the main product is unclear');
    else {
      button = best.b;
      box = climbToPrice(best.b, facts.lang, 5) ?? ancestorOf(best.b, 3);
    }
  }
  if (!box && h1) box = climbToPrice(h1, facts.lang, 3);
  if (h1) r.fields.name = c(textOf(h1, 300), cssPath($, h1), 0.8);
  if (!box) return r;
  // Prices in the buy box, best tier first: named current prices outside specs, then any outside specs.
  const found = priceElements(box, facts.lang);
  const current = found.filter((p) => !p.struck && !p.spec);
  const ranges = current.filter((p) => p.range);
  const plain = current.filter((p) => !p.range);
  const tiers = [plain.filter((p) => p.named), plain];
  let chosen: (typeof plain)[number] | undefined;
  for (const tier of tiers) {
    const amounts = new Set(tier.map((p) => p.price.amount));
    if (amounts.size === 1) {
      chosen = tier[0];
      break;
    }
    if (amounts.size > 1) {
      // A listing inside the box, or variants at several prices: nothing here is clearly the price.
      r.warnings.push(`price left out: ${amounts.size} different prices near the ${button ? 'buy button' : 'title'} (${[...amounts].slice(0, 4).join(', ')})`);
      break;
    }
  }
  if (ranges.length && (!chosen || ranges.some((x) => x.price.amount !== chosen!.price.amount))) {
    r.warnings.push(`price left out: the page shows a price range or a starting price ("${ranges[0].text.slice(0, 40)}")`);
    chosen = undefined;
  }
  const tooMany = plain.length >= 4 && new Set(plain.map((p) => p.price.amount)).size >= 3;
  if (chosen) {
    const path = cssPath($, chosen.el);
    r.fields.price = c(chosen.price.amount, path, chosen.named ? 0.8 : 0.7);
    const code = currencyOf(chosen.price, facts.lang);
    if (chosen.price.currency_raw) r.fields.currency_raw = c(chosen.price.currency_raw, path, 0.8);
    if (code) r.fields.currency = c(code, path, 0.75);
    else if (chosen.price.currency_raw) r.warnings.push(`currency left out: "${chosen.price.currency_raw}" names several currencies and the page's language does not decide it`);
    const struck = found.filter((p) => p.struck && !p.spec && Number(p.price.amount) > Number(chosen!.price.amount));
    const regular = new Set(struck.map((p) => p.price.amount));
    if (regular.size === 1) r.fields.regular_price = c(struck[0].price.amount, cssPath($, struck[0].el), 0.7);
  } else if (!r.warnings.length && found.some((p) => p.struck) && !plain.length) {
    r.warnings.push('price left out: only a struck-out price is shown');
  }
  // Availability: words in the buy box (outside specs first), and the buy button itself.
  const states = new Map<Availability, Element>();
  const specStates = new Map<Availability, Element>();
  for (const el of elementsIn(box, 3_000)) {
    if (!el.children.some((n) => n.type === 'text' && (n as unknown as { data: string }).data.trim())) continue;
    const t = textOf(el, 120);
    const state = phraseAvailability(t);
    if (!state || inOtherRegion(el, box)) continue;
    const isButton = el.name === 'button' || el.name === 'a' || el.name === 'option';
    if (isButton && state !== 'OutOfStock' && state !== 'PreOrder') continue;
    (inSpecTable(el, box) ? specStates : states).set(state, states.get(state) ?? specStates.get(state) ?? el);
  }
  if (button && !disabled(button) && !states.has('OutOfStock') && !states.has('PreOrder')) states.set('InStock', states.get('InStock') ?? button);
  const pool = states.size ? states : specStates;
  const kinds = new Set([...pool.keys()].map((s) => (s === 'LimitedAvailability' ? 'InStock' : s)));
  if (kinds.size === 1) {
    const [state, el] = [...pool.entries()].sort((a, b) => (a[0] === 'LimitedAvailability' ? -1 : b[0] === 'LimitedAvailability' ? 1 : 0))[0];
    r.fields.availability = c(state, cssPath($, el), el === button ? 0.7 : pool === specStates ? 0.65 : 0.8);
  } else if (kinds.size > 1) r.warnings.push(`availability left out: the page says ${[...pool.keys()].join(' and ')}`);
  // Identifiers and properties from specification tables; breadcrumbs.
  const specs = readSpecs($, box);
  Object.assign(r.fields, specs.fields);
  r.warnings.push(...specs.warnings);
  const crumbs = readBreadcrumbs($, facts.url);
  if (crumbs) r.fields.breadcrumbs = crumbs;
  r.looksLikeProduct = !tooMany && Boolean(h1) && (Boolean(button) || (Boolean(chosen) && (Boolean(r.fields.availability) || Boolean(r.fields.sku) || Boolean(r.fields.gtin) || Boolean(r.fields.mpn))));
  return r;
}

/** From `el` up at most `levels` ancestors, the first that shows a price (outside other products' sections). */
function climbToPrice(el: Element, lang: string | undefined, levels: number): Element | undefined {
  let n: Element | null = el;
  for (let i = 0; n && i <= levels; i++, n = n.parent && isTag(n.parent) ? (n.parent as Element) : null) {
    if (n.name === 'body' || n.name === 'html') return priceElements(n, lang, undefined, 50).length ? n : undefined;
    if (priceElements(n, lang, undefined, 1).length) return n;
  }
  return undefined;
}

/** The ancestor `levels` above `el` (or the highest below body). */
function ancestorOf(el: Element, levels: number): Element {
  let n = el;
  for (let i = 0; i < levels && n.parent && isTag(n.parent) && (n.parent as Element).name !== 'body'; i++) n = n.parent as Element;
  return n;
}
