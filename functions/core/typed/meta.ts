import { structuredAvailability } from './availability.js';
import { currencyCode } from './currency.js';
import { structuredAmount } from './price.js';
import type { PageFacts } from './page-facts.js';
import type { ArticleFields, Candidate, ProductFields, Reading } from './types.js';

const c = <T>(value: T, key: string, confidence = 0.85): Candidate<T> => ({ value, source: 'meta', path: `meta[property="${key}"]`, confidence });

/** The first of these meta keys that is present, with its key. */
const first = (f: PageFacts, keys: string[]): [string, string] | undefined => {
  for (const k of keys) {
    const v = f.meta.get(k);
    if (v) return [k, v];
  }
  return undefined;
};

/** Does the page say, in Open Graph, that it is a product? */
export const metaSaysProduct = (f: PageFacts): boolean =>
  /product/i.test(f.meta.get('og:type') ?? '') || Boolean(first(f, ['product:price:amount', 'og:price:amount', 'product:sale_price:amount']));

/**
 * Open Graph and `product:` meta tags (Facebook/Pinterest catalogues) as product fields. A sale
 * price beside the price makes the price the regular one.
 */
export function readProductMeta(f: PageFacts): Reading<ProductFields> {
  const r: Reading<ProductFields> = { fields: {}, warnings: [] };
  const cur = first(f, ['product:price:currency', 'og:price:currency', 'product:sale_price:currency']);
  const code = cur ? currencyCode(cur[1]) : undefined;
  if (cur && code) r.fields.currency = c(code, cur[0]);
  const sale = first(f, ['product:sale_price:amount']);
  const price = first(f, ['product:price:amount', 'og:price:amount', 'product:price']);
  const saleAmount = sale && structuredAmount(sale[1], code);
  const priceAmount = price && structuredAmount(price[1], code);
  if (saleAmount) {
    r.fields.price = c(saleAmount, sale[0]);
    if (priceAmount && Number(priceAmount) > Number(saleAmount)) r.fields.regular_price = c(priceAmount, price[0]);
  } else if (priceAmount) r.fields.price = c(priceAmount, price[0]);
  const avail = first(f, ['product:availability', 'og:availability']);
  const state = avail && structuredAvailability(avail[1]);
  if (avail && state) r.fields.availability = c(state, avail[0]);
  const sku = first(f, ['product:retailer_item_id', 'product:sku']);
  if (sku) r.fields.sku = c(sku[1], sku[0]);
  const brand = first(f, ['product:brand', 'og:brand']);
  if (brand) r.fields.brand = c({ name: brand[1] }, brand[0]);
  const mpn = first(f, ['product:mfr_part_no']);
  if (mpn) r.fields.mpn = c(mpn[1], mpn[0]);
  const gtin = first(f, ['product:gtin', 'product:upc', 'product:ean', 'product:isbn']);
  if (gtin) r.fields.gtin = c([{ type: gtin[0].split(':')[1], value: gtin[1] }], gtin[0]);
  const title = first(f, ['og:title', 'twitter:title']);
  if (title) r.fields.name = c(title[1], title[0], 0.7);
  const desc = first(f, ['og:description', 'description', 'twitter:description']);
  if (desc) r.fields.description = c(desc[1], desc[0], 0.7);
  const image = first(f, ['og:image', 'og:image:url', 'og:image:secure_url', 'twitter:image']);
  if (image) {
    try {
      r.fields.main_image = c({ url: new URL(image[1], f.url).href }, image[0], 0.8);
    } catch {
      /* not a URL: left out */
    }
  }
  return r;
}

/** Open Graph `article:` tags as article fields. */
export function readArticleMeta(f: PageFacts): Reading<ArticleFields> {
  const r: Reading<ArticleFields> = { fields: {}, warnings: [] };
  const title = first(f, ['og:title', 'twitter:title']);
  if (title) r.fields.headline = c(title[1], title[0], 0.75);
  const pub = first(f, ['article:published_time', 'og:article:published_time', 'date', 'dc.date', 'pubdate']);
  const iso = pub && isoDate(pub[1]);
  if (pub && iso) r.fields.date_published = c(iso, pub[0]);
  const mod = first(f, ['article:modified_time', 'og:updated_time']);
  const isoMod = mod && isoDate(mod[1]);
  if (mod && isoMod) r.fields.date_modified = c(isoMod, mod[0]);
  const author = first(f, ['author', 'article:author', 'dc.creator']);
  if (author && !/^https?:/.test(author[1])) r.fields.authors = c(author[1].split(/\s*(?:,|;| and )\s*/).filter(Boolean).map((name) => ({ name })), author[0], 0.75);
  const desc = first(f, ['og:description', 'description']);
  if (desc) r.fields.description = c(desc[1], desc[0], 0.8);
  const image = first(f, ['og:image', 'twitter:image']);
  if (image) {
    try {
      r.fields.main_image = c({ url: new URL(image[1], f.url).href }, image[0], 0.8);
    } catch {
      /* left out */
    }
  }
  return r;
}

/** A date or date-time as ISO 8601 (kept as written when it already is), or undefined. */
export function isoDate(s: string): string | undefined {
  const t = s.trim();
  if (/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(t)) return t.replace(' ', 'T');
  const ms = Date.parse(t);
  if (!Number.isFinite(ms) || !/\d{4}/.test(t)) return undefined;
  const d = new Date(ms);
  // A written date without a time is that calendar day, wherever this runs (Date.parse read it as local time).
  if (!/\d:\d\d/.test(t)) return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return d.toISOString();
}
