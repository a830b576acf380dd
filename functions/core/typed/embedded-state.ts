import type { CheerioAPI } from 'cheerio';
import { structuredAvailability } from './availability.js';
import { currencyCode } from './currency.js';
import { structuredAmount } from './price.js';
import { sameText, type PageFacts } from './page-facts.js';
import type { Candidate, ProductFields, Reading } from './types.js';

/** Largest state blob read (a Next.js page's props are usually tens of kilobytes). */
const MAX_STATE = 2_000_000;
/** Objects visited per blob at most (a state tree is walked once, bounded). */
const MAX_VISITS = 50_000;

/** One application state found in a script tag, parsed, and the name it was found under. */
export interface EmbeddedState {
  name: string;
  data: unknown;
}

/** `window.X = {…};` assignments whose value is JSON (Redux, Apollo, initial state conventions). */
const ASSIGN = /(?:window\.|self\.|var |let |const )?(__(?:APOLLO_STATE|INITIAL_STATE|PRELOADED_STATE|REDUX_STATE|NUXT|STATE|APP_STATE|PRODUCT_STATE|INITIAL_PROPS)__|__NEXT_DATA__|initialState|__APOLLO_STATE__)\s*=\s*/;

/**
 * Application state serialised into the page by its framework: `__NEXT_DATA__`, Nuxt's
 * `__NUXT_DATA__`/`window.__NUXT__` when it is plain JSON, Apollo's cache and Redux-style
 * `window.__INITIAL_STATE__ = {…}`. Only JSON is read; nothing is evaluated.
 */
export function readEmbeddedState($: CheerioAPI): EmbeddedState[] {
  const out: EmbeddedState[] = [];
  $('script').each((_, el) => {
    const s = $(el);
    const id = s.attr('id') ?? '';
    const type = (s.attr('type') ?? '').toLowerCase();
    const body = s.text();
    if (!body || body.length > MAX_STATE || type === 'application/ld+json') return;
    if (id === '__NEXT_DATA__' || (type === 'application/json' && /state|data|props|apollo|redux|nuxt/i.test(id))) {
      const data = tryJson(body);
      if (data !== undefined) out.push({ name: id || 'application/json', data });
      return;
    }
    const m = ASSIGN.exec(body);
    if (!m) return;
    const start = m.index + m[0].length;
    const json = balanced(body, start);
    const data = json ? tryJson(json) : undefined;
    if (data !== undefined) out.push({ name: m[1], data });
  });
  return out;
}

function tryJson(s: string): unknown {
  try {
    return JSON.parse(s.trim());
  } catch {
    return undefined;
  }
}

/** The balanced `{…}` starting at `from` (strings respected), or undefined. */
function balanced(s: string, from: number): string | undefined {
  if (s[from] !== '{') return undefined;
  let depth = 0;
  let inStr = false;
  for (let i = from; i < s.length; i++) {
    const ch = s[i];
    if (inStr) {
      if (ch === '\\') i++;
      else if (ch === '"') inStr = false;
    } else if (ch === '"') inStr = true;
    else if (ch === '{') depth++;
    else if (ch === '}' && --depth === 0) return s.slice(from, i + 1);
  }
  return undefined;
}

type Obj = Record<string, unknown>;
const PRICE_KEYS = ['price', 'salePrice', 'currentPrice', 'finalPrice', 'sellingPrice', 'priceAmount', 'amount'];
const REGULAR_KEYS = ['listPrice', 'regularPrice', 'originalPrice', 'wasPrice', 'compareAtPrice', 'msrp'];
const NAME_KEYS = ['name', 'title', 'productName', 'displayName'];

const scalar = (v: unknown): string | number | undefined => {
  if (typeof v === 'string' || typeof v === 'number') return v;
  if (v && typeof v === 'object') {
    const o = v as Obj;
    for (const k of ['value', 'amount', 'raw', 'formatted', 'current']) if (typeof o[k] === 'string' || typeof o[k] === 'number') return o[k] as string | number;
  }
  return undefined;
};

/** A product-like object: a name and a price, plus a currency, a SKU or a stock flag. */
function asProduct(o: Obj): { name: string; price?: string; regular?: string; currency?: string; sku?: string; availability?: ProductFields['availability']; keys: Record<string, string> } | undefined {
  const nameKey = NAME_KEYS.find((k) => typeof o[k] === 'string' && (o[k] as string).trim());
  if (!nameKey) return undefined;
  const priceKey = PRICE_KEYS.find((k) => scalar(o[k]) !== undefined);
  const curKey = ['currency', 'currencyCode', 'priceCurrency'].find((k) => typeof o[k] === 'string');
  const priceObj = priceKey && o[priceKey] && typeof o[priceKey] === 'object' ? (o[priceKey] as Obj) : undefined;
  const currencyRaw = (curKey ? (o[curKey] as string) : undefined) ?? (typeof priceObj?.currency === 'string' ? priceObj.currency : typeof priceObj?.currencyCode === 'string' ? priceObj.currencyCode : undefined);
  const currency = currencyRaw ? currencyCode(currencyRaw) : undefined;
  const skuKey = ['sku', 'skuId', 'productCode', 'articleNumber'].find((k) => typeof o[k] === 'string' || typeof o[k] === 'number');
  const availKey = ['availability', 'stockStatus', 'inStock', 'available', 'isInStock'].find((k) => o[k] !== undefined);
  const availability = availKey ? structuredAvailability(o[availKey]) : undefined;
  if (!priceKey) return undefined;
  if (!currency && !skuKey && !availability) return undefined;
  const price = structuredAmount(scalar(o[priceKey]), currency);
  const regKey = REGULAR_KEYS.find((k) => scalar(o[k]) !== undefined);
  const regular = regKey ? structuredAmount(scalar(o[regKey]), currency) : undefined;
  const keys: Record<string, string> = { name: nameKey, price: priceKey };
  if (curKey) keys.currency = curKey;
  if (skuKey) keys.sku = skuKey;
  if (availKey) keys.availability = availKey;
  if (regKey) keys.regular_price = regKey;
  return { name: (o[nameKey] as string).trim(), price, regular, currency, sku: skuKey ? String(o[skuKey]) : undefined, availability, keys };
}

/**
 * The page's own product in its application state: a product-like object whose name is the
 * page's h1 (or og:title). Several such objects that disagree on price give no price and a
 * warning; objects for other products (recommendations, the cart) are never taken.
 */
export function readProductState(states: EmbeddedState[], facts: PageFacts): Reading<ProductFields> {
  const r: Reading<ProductFields> = { fields: {}, warnings: [] };
  const titles = [...facts.h1, facts.meta.get('og:title') ?? ''].filter(Boolean);
  const found: { p: NonNullable<ReturnType<typeof asProduct>>; path: string }[] = [];
  for (const st of states) {
    let visits = 0;
    const walk = (v: unknown, path: string, depth: number) => {
      if (visits++ > MAX_VISITS || depth > 40 || !v || typeof v !== 'object') return;
      if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${path}[${i}]`, depth + 1));
      const o = v as Obj;
      const p = asProduct(o);
      if (p && titles.some((t) => sameText(t, p.name))) found.push({ p, path });
      for (const [k, x] of Object.entries(o)) if (x && typeof x === 'object') walk(x, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`, depth + 1);
    };
    walk(st.data, st.name, 0);
  }
  if (!found.length) return r;
  const c = <T>(value: T, path: string, confidence = 0.75): Candidate<T> => ({ value, source: 'embedded-state', path, confidence });
  const agree = <K extends 'price' | 'currency' | 'sku' | 'availability' | 'regular'>(k: K) => {
    const vals = new Set(found.map((f) => f.p[k]).filter((x) => x !== undefined));
    if (vals.size > 1) r.warnings.push(`${k === 'regular' ? 'regular_price' : k} left out: the application state holds ${vals.size} values for this product (${[...vals].slice(0, 4).join(', ')})`);
    if (vals.size !== 1) return undefined;
    const f = found.find((x) => x.p[k] !== undefined)!;
    const key = f.p.keys[k === 'regular' ? 'regular_price' : k];
    return { value: f.p[k]!, path: `${f.path}.${key}` };
  };
  const first = found[0];
  r.fields.name = c(first.p.name, `${first.path}.${first.p.keys.name}`, 0.8);
  const price = agree('price');
  if (price) r.fields.price = c(price.value as string, price.path);
  const currency = agree('currency');
  if (currency) r.fields.currency = c(currency.value as string, currency.path);
  const sku = agree('sku');
  if (sku) r.fields.sku = c(sku.value as string, sku.path);
  const availability = agree('availability');
  if (availability) r.fields.availability = c(availability.value as NonNullable<ProductFields['availability']>, availability.path, 0.7);
  const regular = agree('regular');
  if (regular && price && Number(regular.value) > Number(price.value)) r.fields.regular_price = c(regular.value as string, regular.path, 0.7);
  return r;
}
