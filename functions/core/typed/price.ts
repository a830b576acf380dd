import { CURRENCY_SYMBOLS, currencyCode, ISO_CODES } from './currency.js';

/** A price read from text: the decimal amount, and the currency as printed and as ISO code. */
export interface ParsedPrice {
  amount: string;
  currency_raw?: string;
  currency?: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const SYMBOL_ALT = CURRENCY_SYMBOLS.map(escape).join('|');
const CODE_ALT = [...ISO_CODES].join('|');
// A number as shops print it: 1,299.00 · 1.299,00 · 1 299,00 · 1'299.00 · 12,- · 1299
const NUMBER = String.raw`\d{1,3}(?:[.,'’\s\u00a0\u202f]\d{3})+(?:[.,]\d{1,3}|,-)?|\d+(?:[.,]\d{1,3}|,-)?`;
const CUR = `(?:${SYMBOL_ALT}|\\b(?:${CODE_ALT})\\b)`;
/** A price with its currency before or after it. */
// A currency followed by a number belongs to that number ("Mug 1 €1.50" is one price, 1.50).
export const PRICE_RE = new RegExp(`(${CUR})\\s?(${NUMBER})|(${NUMBER})\\s?(${CUR})(?!\\s?\\d)`, 'gu');
/** Two prices joined by a dash or "to": a range, never one price. */
const RANGE_RE = new RegExp(`(?:${CUR})?\\s?(?:${NUMBER})\\s?(?:${CUR})?\\s*(?:-|–|—|to|bis|à|a)\\s*(?:${CUR})\\s?(?:${NUMBER})|(?:${NUMBER})\\s*(?:-|–|—)\\s*(?:${NUMBER})\\s?(?:${CUR})`, 'u');

/**
 * A number as a shop printed it, as a decimal string with a dot (`"1.299,00"` → `"1299.00"`), or
 * undefined when it is not one price. A single separator followed by exactly three digits is a
 * thousands separator (`1,299` → 1299) unless the currency has three minor digits.
 */
export function normalizeAmount(raw: string, currency?: string): string | undefined {
  let s = raw.trim().replace(/,-$/, '').replace(/[\s\u00a0\u202f'’]/g, '');
  if (!/^\d[\d.,]*$/.test(s)) return undefined;
  const lastDot = s.lastIndexOf('.');
  const lastComma = s.lastIndexOf(',');
  let decimalSep: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) decimalSep = lastDot > lastComma ? '.' : ',';
  else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const count = s.split(sep).length - 1;
    const tail = s.length - s.lastIndexOf(sep) - 1;
    const threeMinor = currency && ['KWD', 'BHD', 'OMR'].includes(currency);
    decimalSep = count > 1 || (tail === 3 && !threeMinor) ? null : sep;
  }
  if (decimalSep) {
    const other = decimalSep === '.' ? ',' : '.';
    const [int, frac] = [s.slice(0, s.lastIndexOf(decimalSep)).split(other).join(''), s.slice(s.lastIndexOf(decimalSep) + 1)];
    if (/[.,]/.test(int)) return undefined;
    s = `${int}.${frac}`;
  } else s = s.replace(/[.,]/g, '');
  return formatDecimal(s, currency);
}

/** `"12.5"` → `"12.50"`; a number as a decimal string with the currency's minor digits (at least two). */
export function formatDecimal(value: string | number, currency?: string): string | undefined {
  const s = typeof value === 'number' ? (Number.isFinite(value) ? String(value) : '') : value.trim();
  if (!/^\d+(\.\d+)?$/.test(s)) return undefined;
  const [int, frac = ''] = s.split('.');
  const minor = Math.max(currency && ['KWD', 'BHD', 'OMR'].includes(currency) ? 3 : 2, frac.replace(/0+$/, '').length);
  if (minor > 4) return undefined;
  return `${String(BigInt(int))}.${frac.padEnd(minor, '0').slice(0, minor)}`;
}

/** Is this text a price range ("€10 – €20", "10–20 €")? */
export const isPriceRange = (text: string): boolean => RANGE_RE.test(text);

/** Every price in a text, in order. */
export function pricesIn(text: string, lang?: string | null): ParsedPrice[] {
  const out: ParsedPrice[] = [];
  for (const m of text.matchAll(PRICE_RE)) {
    const raw = (m[1] ?? m[4] ?? '').trim();
    const num = m[2] ?? m[3] ?? '';
    const code = currencyCode(raw, lang);
    const amount = normalizeAmount(num, code);
    if (!amount) continue;
    out.push({ amount, currency_raw: raw, ...(code ? { currency: code } : {}) });
  }
  return out;
}

/**
 * A structured price value (`"1299.00"`, `1299`, `"1.299,00"`, `"$1,299"`) as a decimal string,
 * or undefined when it is not one positive price.
 */
export function structuredAmount(value: unknown, currency?: string): string | undefined {
  if (typeof value === 'number') return value > 0 ? formatDecimal(value, currency) : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (!s) return undefined;
  const plain = /^\d+(\.\d+)?$/.test(s) ? formatDecimal(s, currency) : normalizeAmount(s.replace(/^[^\d]+|[^\d,.-]+$/g, ''), currency);
  return plain && Number(plain) > 0 ? plain : undefined;
}
