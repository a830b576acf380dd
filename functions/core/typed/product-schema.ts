import { structuredAvailability } from './availability.js';
import { currencyCode } from './currency.js';
import { structuredAmount } from './price.js';
import { firstText, hasType, text, typesOf, urlOf, values, type SchemaNode } from './schema-node.js';
import type { Availability, Candidate, ProductFields, Reading } from './types.js';

/** schema.org types read as a product. */
export const PRODUCT_TYPES = ['Product', 'ProductGroup', 'IndividualProduct', 'ProductModel', 'SomeProducts', 'Vehicle', 'Car', 'Book', 'MobileApplication', 'SoftwareApplication'];
const OFFER_TYPES = ['Offer', 'AggregateOffer'];

/** What the offers of a product say, after ranges and disagreements were refused. */
interface OfferReading {
  price?: Candidate<string>;
  regular_price?: Candidate<string>;
  currency?: Candidate<string>;
  availability?: Candidate<Availability>;
  warnings: string[];
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown, node: SchemaNode): Obj | undefined => {
  const r = node.resolve ? node.resolve(v) : v;
  return r && typeof r === 'object' && !Array.isArray(r) ? (r as Obj) : undefined;
};

/** One Offer's price, currency, availability and list price (a StrikethroughPrice/ListPrice specification). */
function readOffer(o: Obj, path: string, node: SchemaNode, pageUrl = 'https://invalid.invalid/') {
  const spec = values(o, 'priceSpecification').map((s) => asObj(s, node)).filter((s): s is Obj => Boolean(s));
  const current = spec.filter((s) => !/strikethrough|list|msrp|srp|was/i.test(String(s.priceType ?? '')));
  const listed = spec.filter((s) => /strikethrough|list|msrp|srp|was/i.test(String(s.priceType ?? '')));
  const currency = firstText(o, 'priceCurrency') ?? (current[0] && firstText(current[0], 'priceCurrency'));
  const code = currency ? currencyCode(currency) : undefined;
  const priceRaw = values(o, 'price')[0] ?? (current[0] ? values(current[0], 'price')[0] : undefined);
  const pricePath = values(o, 'price').length ? node.join(path, 'price') : node.join(node.join(path, 'priceSpecification'), 'price');
  const listRaw = listed[0] ? values(listed[0], 'price')[0] : undefined;
  return {
    price: structuredAmount(typeof priceRaw === 'object' ? text(priceRaw) : priceRaw, code),
    pricePath,
    regular: structuredAmount(typeof listRaw === 'object' ? text(listRaw) : listRaw, code),
    currency: code,
    currencyRaw: currency,
    availability: structuredAvailability(text(values(o, 'availability')[0])),
    sku: firstText(o, 'sku'),
    url: urlOf(values(o, 'url')[0], pageUrl),
    name: firstText(o, 'name'),
  };
}

/**
 * The offers of a product node: one Offer gives its price; several agreeing Offers give their
 * common price; an AggregateOffer gives a price only when low and high agree. A range, or offers
 * that disagree (variants at other prices), give no price and a warning: which one the page
 * sells by default cannot be told from the data.
 */
export function readOffers(product: Obj, path: string, node: SchemaNode, pageUrl?: string): OfferReading & { offers: ReturnType<typeof readOffer>[] } {
  const out: OfferReading & { offers: ReturnType<typeof readOffer>[] } = { warnings: [], offers: [] };
  const c = <T>(value: T, p: string, confidence = 0.95): Candidate<T> => ({ value, source: node.source, path: p, confidence });
  const raw = values(product, 'offers').map((v, i) => ({ o: asObj(v, node), p: values(product, 'offers').length > 1 ? node.join(path, 'offers', i) : node.join(path, 'offers') }));
  const offers: { o: Obj; p: string }[] = [];
  for (const { o, p } of raw) {
    if (!o) continue;
    if (hasType(o, ['AggregateOffer'])) {
      const nested = values(o, 'offers').map((v, i) => ({ o: asObj(v, node), p: node.join(node.join(p, 'offers'), '', i) }));
      const low = structuredAmount(text(values(o, 'lowPrice')[0]));
      const high = structuredAmount(text(values(o, 'highPrice')[0]));
      const single = structuredAmount(text(values(o, 'price')[0]));
      const code = currencyCode(firstText(o, 'priceCurrency') ?? '');
      const availability = structuredAvailability(text(values(o, 'availability')[0]));
      if (availability) out.availability = c(availability, node.join(p, 'availability'));
      if (code) out.currency = c(code, node.join(p, 'priceCurrency'));
      if (nested.some((n) => n.o)) offers.push(...nested.filter((n): n is { o: Obj; p: string } => Boolean(n.o)));
      else if (single && (!low || low === single) && (!high || high === single)) out.price = c(single, node.join(p, 'price'));
      else if (low && (high === low || (!high && Number(firstText(o, 'offerCount') ?? 1) <= 1))) out.price = c(low, node.join(p, 'lowPrice'), 0.9);
      else if (low || high) out.warnings.push(`price left out: the product is offered at a range of prices (${low ?? '?'}–${high ?? '?'})`);
      continue;
    }
    if (!typesOf(o).length || hasType(o, OFFER_TYPES) || values(o, 'price').length) offers.push({ o, p });
  }
  const read = offers.map(({ o, p }) => ({ ...readOffer(o, p, node, pageUrl), p }));
  out.offers = read;
  if (!read.length) return out;
  // The offer for this very page (its URL), when the offers are per variant.
  const own = pageUrl ? read.filter((r) => r.url && sameUrl(r.url, pageUrl)) : [];
  const pool = own.length === 1 ? own : read;
  const prices = new Set(pool.map((r) => r.price).filter(Boolean));
  const currencies = new Set(pool.map((r) => r.currency).filter(Boolean));
  if (currencies.size > 1) out.warnings.push(`currency left out: the offers are in ${[...currencies].join(', ')}`);
  else if (currencies.size === 1 && !out.currency) out.currency = c([...currencies][0]!, node.join(pool.find((r) => r.currency)!.p, 'priceCurrency'));
  if (prices.size === 1 && currencies.size <= 1) {
    const first = pool.find((r) => r.price)!;
    out.price = c(first.price!, first.pricePath, pool.length > 1 ? 0.9 : 0.95);
    const regular = new Set(pool.map((r) => r.regular).filter(Boolean));
    if (regular.size === 1 && Number([...regular][0]) > Number(first.price)) out.regular_price = c([...regular][0]!, node.join(node.join(first.p, 'priceSpecification'), 'price'), 0.85);
  } else if (prices.size > 1) out.warnings.push(`price left out: ${prices.size} offers at different prices (${[...prices].slice(0, 4).join(', ')}), none marked as this page's`);
  const states = new Set(pool.map((r) => r.availability).filter(Boolean));
  if (states.size === 1) {
    const first = pool.find((r) => r.availability)!;
    out.availability = c([...states][0]!, node.join(first.p, 'availability'), pool.length > 1 ? 0.9 : 0.95);
  } else if (states.size > 1) {
    // Some variants in stock: the product can be bought, but the selected one's state is unknown.
    out.warnings.push(`availability left out: the offers differ (${[...states].join(', ')})`);
  }
  return out;
}

function sameUrl(a: string, b: string): boolean {
  try {
    const x = new URL(a);
    const y = new URL(b);
    return x.host === y.host && x.pathname.replace(/\/$/, '') === y.pathname.replace(/\/$/, '') && x.search === y.search;
  } catch {
    return false;
  }
}

const GTIN_KEYS = ['gtin13', 'gtin12', 'gtin14', 'gtin8', 'gtin', 'isbn'];

/** A Product item as product fields with provenance. */
export function readProductNode(node: SchemaNode, pageUrl: string): Reading<ProductFields> {
  const o = node.value;
  const path = node.path;
  const r: Reading<ProductFields> = { fields: {}, warnings: [] };
  const c = <T>(value: T, key: string, confidence = 0.95): Candidate<T> => ({ value, source: node.source, path: node.join(path, key), confidence });
  const name = firstText(o, 'name');
  if (name) r.fields.name = c(name, 'name');
  const offers = readOffers(o, path, node, pageUrl);
  r.warnings.push(...offers.warnings);
  if (offers.price) r.fields.price = offers.price;
  if (offers.regular_price) r.fields.regular_price = offers.regular_price;
  if (offers.currency) r.fields.currency = offers.currency;
  if (offers.availability) r.fields.availability = offers.availability;
  const sku = firstText(o, 'sku') ?? (offers.offers.length === 1 ? offers.offers[0].sku : undefined);
  if (sku) r.fields.sku = c(sku, 'sku');
  const mpn = firstText(o, 'mpn');
  if (mpn) r.fields.mpn = c(mpn, 'mpn');
  const gtin = GTIN_KEYS.flatMap((k) => values(o, k).map((v) => ({ type: k, value: text(v) ?? '' }))).filter((g) => /^\d{8,14}$/.test(g.value.replace(/[\s-]/g, '')) || (g.type === 'isbn' && g.value));
  if (gtin.length) r.fields.gtin = c(gtin, GTIN_KEYS.find((k) => values(o, k).length)!);
  const brand = values(o, 'brand').map((b) => text(asObj(b, node) ?? b)).find(Boolean);
  if (brand) r.fields.brand = c({ name: brand }, 'brand');
  const description = firstText(o, 'description');
  if (description) r.fields.description = c(description, 'description', 0.9);
  const images = values(o, 'image').map((v) => urlOf(asObj(v, node) ?? v, pageUrl)).filter((u): u is string => Boolean(u));
  if (images.length) {
    r.fields.main_image = c({ url: images[0] }, 'image', 0.9);
    r.fields.images = c([...new Set(images)].map((url) => ({ url })), 'image', 0.9);
  }
  const rating = asObj(values(o, 'aggregateRating')[0], node);
  if (rating) {
    const num = (k: string) => {
      const n = Number(String(text(values(rating, k)[0]) ?? '').replace(',', '.'));
      return Number.isFinite(n) && text(values(rating, k)[0]) !== undefined ? n : undefined;
    };
    const ar = { rating_value: num('ratingValue'), best_rating: num('bestRating'), review_count: num('reviewCount') ?? num('ratingCount') };
    if (ar.rating_value !== undefined) r.fields.aggregate_rating = c(Object.fromEntries(Object.entries(ar).filter(([, v]) => v !== undefined)), 'aggregateRating', 0.9);
  }
  const props = values(o, 'additionalProperty').map((p) => asObj(p, node)).filter((p): p is Obj => Boolean(p)).map((p) => ({ name: firstText(p, 'name') ?? '', value: firstText(p, 'value') ?? '' })).filter((p) => p.name && p.value);
  if (props.length) r.fields.additional_properties = c(props, 'additionalProperty', 0.9);
  const url = urlOf(values(o, 'url')[0], pageUrl);
  if (url) r.fields.url = c(url, 'url', 0.9);
  const variants = values(o, 'hasVariant').map((v) => asObj(v, node)).filter((v): v is Obj => Boolean(v));
  const variantRows = (variants.length ? variants.map((v, i) => {
    const vo = readOffers(v, node.join(path, 'hasVariant', i), node, pageUrl);
    return { name: firstText(v, 'name'), sku: firstText(v, 'sku'), price: vo.price?.value, currency: vo.currency?.value, availability: vo.availability?.value, url: urlOf(values(v, 'url')[0], pageUrl) };
  }) : offers.offers.length > 1 ? offers.offers.map((x) => ({ name: x.name, sku: x.sku, price: x.price, currency: x.currency, availability: x.availability, url: x.url })) : [])
    .map((v) => Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined)))
    .filter((v) => Object.keys(v).length);
  if (variantRows.length) r.fields.variants = c(variantRows, variants.length ? 'hasVariant' : 'offers', 0.9);
  return r;
}
