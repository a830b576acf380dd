import type { Element } from 'domhandler';
import { phraseAvailability } from './availability.js';
import { classId, cssPath, elementsIn, inOtherRegion, isTag, textOf } from './dom-helpers.js';
import { readBreadcrumbs } from './document-breadcrumbs.js';
import { mergeReadings } from './merge.js';
import { currencyOf, priceElements } from './price-elements.js';
import { PRODUCT_TYPES, readProductNode } from './product-schema.js';
import type { TypedInputs } from './product.js';
import { breadcrumbsFromNodes } from './schema-breadcrumbs.js';
import { hasType, urlOf, values, type SchemaNode } from './schema-node.js';
import type { Candidate, ListedProduct, ProductList, ProductListFields, Reading } from './types.js';

const MAX_PRODUCTS = 200;

/** A listed product from a structured Product item (price only when its offers agree). */
function listed(node: SchemaNode, pageUrl: string): ListedProduct {
  const r = readProductNode(node, pageUrl).fields;
  const p: ListedProduct = {};
  if (r.name) p.name = r.name.value;
  if (r.url) p.url = r.url.value;
  if (r.price) p.price = r.price.value;
  if (r.regular_price) p.regular_price = r.regular_price.value;
  if (r.currency) p.currency = r.currency.value;
  if (r.availability) p.availability = r.availability.value;
  if (r.main_image) p.main_image = r.main_image.value;
  return p;
}

/** Products of a structured listing: an ItemList of products or URLs, or several top-level Product items. */
function structuredProducts(nodes: SchemaNode[], pageUrl: string, productPage: boolean): Candidate<ListedProduct[]> | undefined {
  const list = nodes.find((n) => !n.nested && hasType(n.value, ['ItemList', 'OfferCatalog', 'CollectionPage', 'SearchResultsPage']) && values(n.value, 'itemListElement').length);
  if (list) {
    const items = values(list.value, 'itemListElement').slice(0, MAX_PRODUCTS).map((li, i) => {
      const o = li && typeof li === 'object' ? (li as Record<string, unknown>) : undefined;
      if (!o) return undefined;
      const item = (o.item && typeof o.item === 'object' ? o.item : hasType(o, PRODUCT_TYPES) ? o : undefined) as Record<string, unknown> | undefined;
      if (item && hasType(item, PRODUCT_TYPES)) return listed({ ...list, value: item, path: list.join(list.join(list.path, 'itemListElement', i), 'item'), nested: true }, pageUrl);
      const url = urlOf(o.url ?? o.item, pageUrl);
      return url ? { url, ...(typeof o.name === 'string' ? { name: o.name } : {}) } : undefined;
    }).filter((x): x is ListedProduct => Boolean(x && (x.url || x.name)));
    if (items.length) return { value: items, source: list.source, path: list.join(list.path, 'itemListElement'), confidence: 0.9 };
  }
  const products = productPage ? [] : nodes.filter((n) => !n.nested && hasType(n.value, PRODUCT_TYPES));
  if (products.length >= 2) {
    const items = products.slice(0, MAX_PRODUCTS).map((n) => listed(n, pageUrl)).filter((p) => p.url || p.name);
    const urls = new Set(items.map((p) => p.url ?? p.name));
    if (urls.size >= 2) return { value: items, source: products[0].source, path: products[0].path.replace(/:eq\(\d+\)$/, ''), confidence: 0.85 };
  }
  return undefined;
}

/** The shape of a card: its tag and classes, so that siblings built from one template group together. */
const signature = (el: Element) => `${el.name}.${(el.attribs.class ?? '').trim().split(/\s+/).filter((c) => !/active|selected|first|last|odd|even|\d/.test(c)).sort().join('.')}`;

/**
 * Product cards in the document: repeated sibling elements of one template, each holding one
 * link and one current price. The largest such group (at least three cards) is the listing.
 */
function documentProducts(inp: TypedInputs): { products?: Candidate<ListedProduct[]>; warnings: string[] } {
  const { $, facts } = inp;
  const body = $('body')[0] as Element | undefined;
  if (!body) return { warnings: [] };
  const prices = priceElements(body, facts.lang, undefined, 1_000).filter((p) => !p.spec);
  // Each price's card: climb until the ancestor's siblings share its template.
  const groups = new Map<Element, Map<string, Element[]>>();
  for (const p of prices) {
    let n: Element | null = p.el;
    for (let i = 0; n && i < 8; i++) {
      const parent: Element | null = n.parent && isTag(n.parent) ? (n.parent as Element) : null;
      if (!parent) break;
      const sig = signature(n);
      const sameSibs = parent.children.filter((c) => isTag(c) && signature(c) === sig).length;
      if (sameSibs >= 3 && $(n).find('a[href]').length) {
        const bySig = groups.get(parent) ?? new Map<string, Element[]>();
        const cards = bySig.get(sig) ?? [];
        if (!cards.includes(n)) cards.push(n);
        bySig.set(sig, cards);
        groups.set(parent, bySig);
        break;
      }
      n = parent;
    }
  }
  let best: { parent: Element; cards: Element[] } | undefined;
  for (const [parent, bySig] of groups) for (const cards of bySig.values()) if (cards.length >= 3 && (!best || cards.length > best.cards.length)) best = { parent, cards };
  if (!best || inOtherRegion(best.parent)) return { warnings: [] };
  const warnings: string[] = [];
  const items: ListedProduct[] = [];
  for (const card of best.cards.slice(0, MAX_PRODUCTS)) {
    const links = ($(card).find('a[href]').toArray() as Element[]).filter((a) => !/^(#|javascript:|mailto:)/i.test(a.attribs.href.trim()));
    const urls = [...new Set(links.map((a) => urlOf(a.attribs.href, facts.url)).filter((u): u is string => Boolean(u)))].filter((u) => !/[?&](add-to-cart|wishlist|compare)=|\/cart\b|\/wishlist\b/i.test(u));
    if (urls.length !== 1 && new Set(urls.map((u) => u.replace(/[?#].*$/, ''))).size !== 1) {
      if (urls.length > 1) warnings.push(`a product card links to ${urls.length} pages; its url is left out`);
    }
    const url = new Set(urls.map((u) => u.replace(/#.*$/, ''))).size === 1 ? urls[0] : undefined;
    const heading = $(card).find('h2, h3, h4, h5, [class*="title" i], [class*="name" i]').first()[0] as Element | undefined;
    const nameEl = heading ?? links.find((a) => textOf(a, 200).length > 2);
    const name = nameEl ? textOf(nameEl, 300) : undefined;
    const ps = priceElements(card, facts.lang, card);
    const current = ps.filter((p) => !p.struck && !p.range);
    const amounts = new Set(current.map((p) => p.price.amount));
    const p: ListedProduct = {};
    if (name) p.name = name;
    if (url) p.url = url;
    if (amounts.size === 1) {
      p.price = current[0].price.amount;
      const code = currencyOf(current[0].price, facts.lang);
      if (code) p.currency = code;
      const struck = ps.filter((x) => x.struck && Number(x.price.amount) > Number(p.price));
      if (new Set(struck.map((x) => x.price.amount)).size === 1) p.regular_price = struck[0].price.amount;
    }
    const states = new Set(elementsIn(card, 300).filter((el) => el.children.some((c) => c.type === 'text')).map((el) => phraseAvailability(textOf(el, 100))).filter(Boolean));
    if (states.size === 1) p.availability = [...states][0];
    const img = $(card).find('img[src], img[data-src]').first()[0] as Element | undefined;
    const src = img && urlOf(img.attribs.src ?? img.attribs['data-src'], facts.url);
    if (src && !/^data:/.test(src)) p.main_image = { url: src };
    if (p.url || p.name) items.push(p);
  }
  if (items.length < 3) return { warnings };
  return { products: { value: items, source: 'document', path: `${cssPath($, best.parent)} > ${signature(best.cards[0]).replace(/\.$/, '')}`, confidence: 0.7 }, warnings };
}

/** The pagination: the next page's URL (rel=next, a "next" link in the pagination) and this page's number. */
function pagination(inp: TypedInputs): Reading<ProductListFields> {
  const { $, facts } = inp;
  const r: Reading<ProductListFields> = { fields: {}, warnings: [] };
  const rel = ($('link[rel~="next" i], a[rel~="next" i]').first()[0] as Element | undefined);
  const nextEl = rel ?? ($('[class*="pagination" i] a, [class*="pager" i] a, nav[aria-label*="pag" i] a').toArray() as Element[]).find((a) => {
    const li = a.parent && isTag(a.parent) ? (a.parent as Element) : undefined;
    return /(^|[\s_-])next([\s_-]|$)/.test(classId(a)) || (li && /(^|[\s_-])next([\s_-]|$)/.test(classId(li))) || /^(next|next page|weiter|nächste|suivant|siguiente|successiva|volgende|nästa|następna|›|»|→)$/i.test(textOf(a, 40)) || /next/i.test(a.attribs['aria-label'] ?? '');
  });
  const href = nextEl?.attribs.href && urlOf(nextEl.attribs.href, facts.url);
  if (href && href !== facts.url) r.fields.next_page_url = { value: href, source: 'document', path: cssPath($, nextEl!), confidence: 0.85 };
  const active = ($('[class*="pagination" i] [aria-current="page"], [class*="pagination" i] .active, [class*="pager" i] .active, [class*="pagination" i] .current').toArray() as Element[]).map((el) => textOf(el, 20)).find((t) => /^\d{1,5}$/.test(t));
  let page = active ? Number(active) : undefined;
  if (page === undefined) {
    const q = /[?&](?:page|p|pg|pagina|seite)=(\d{1,5})\b/i.exec(facts.url) ?? /\/page\/(\d{1,5})\/?$/.exec(facts.url);
    page = q ? Number(q[1]) : href ? 1 : undefined;
  }
  if (page !== undefined) r.fields.page_number = { value: page, source: 'document', path: active ? '[class*=pagination] .active' : 'request URL', confidence: active ? 0.85 : 0.7 };
  return r;
}

/** `product_list`: a category, search or collection page's products. Null when the page lists no products. */
export function readProductList(inp: TypedInputs, productPage: boolean): ProductList | null {
  const readings: Reading<ProductListFields>[] = [];
  for (const nodes of [inp.jsonLd, inp.microdata, inp.rdfa]) {
    const products = structuredProducts(nodes, inp.facts.url, productPage);
    if (products) readings.push({ fields: { products }, warnings: [] });
  }
  // A product page's related products are not a listing: the document path is for pages that are not one product.
  const doc = productPage ? { warnings: [] } : documentProducts(inp);
  if (doc.products) readings.push({ fields: { products: doc.products }, warnings: doc.warnings });
  if (!readings.length) return null;
  const h1 = inp.facts.h1.length === 1 ? inp.facts.h1[0] : undefined;
  const crumbs = breadcrumbsFromNodes([...inp.jsonLd, ...inp.microdata, ...inp.rdfa], inp.facts.url) ?? readBreadcrumbs(inp.$, inp.facts.url);
  readings.push({
    fields: {
      ...(h1 ? { category_name: { value: h1, source: 'document' as const, path: 'h1', confidence: 0.75 } } : {}),
      ...(crumbs ? { breadcrumbs: crumbs } : {}),
    },
    warnings: [],
  });
  readings.push(pagination(inp));
  return mergeReadings<ProductListFields>(readings);
}
