/**
 * Currency symbols and codes as shops print them, mapped to ISO 4217. A symbol shared by several
 * currencies (`$`, `kr`, `¥`) is resolved only by the page's language region; when that does not
 * decide it, the code is left out (`currency_raw` keeps what the page printed).
 */

/** ISO 4217 codes shops commonly use (a three-letter word is a currency only if listed here). */
export const ISO_CODES = new Set([
  'USD', 'EUR', 'GBP', 'JPY', 'CNY', 'CHF', 'CAD', 'AUD', 'NZD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'RON', 'BGN',
  'HRK', 'RUB', 'UAH', 'TRY', 'ILS', 'AED', 'SAR', 'QAR', 'KWD', 'BHD', 'OMR', 'INR', 'PKR', 'BDT', 'LKR', 'IDR', 'MYR',
  'SGD', 'THB', 'VND', 'PHP', 'KRW', 'TWD', 'HKD', 'MXN', 'BRL', 'ARS', 'CLP', 'COP', 'PEN', 'UYU', 'ZAR', 'EGP', 'NGN',
  'KES', 'MAD', 'ISK', 'RSD', 'GEL', 'KZT', 'BYN',
]);

/** Symbols that name one currency wherever they appear. Longest first when matched. */
const UNAMBIGUOUS: Record<string, string> = {
  'US$': 'USD', 'C$': 'CAD', 'CA$': 'CAD', 'A$': 'AUD', 'AU$': 'AUD', 'NZ$': 'NZD', 'HK$': 'HKD', 'S$': 'SGD', 'R$': 'BRL',
  'MX$': 'MXN', '€': 'EUR', '£': 'GBP', '₹': 'INR', '₩': 'KRW', '₽': 'RUB', '₺': 'TRY', '₪': 'ILS', '₫': 'VND', '฿': 'THB',
  '₱': 'PHP', '₴': 'UAH', 'zł': 'PLN', 'Kč': 'CZK', 'Ft': 'HUF', 'lei': 'RON', 'лв': 'BGN', 'CHF': 'CHF', 'Fr.': 'CHF',
  'RM': 'MYR', 'Rp': 'IDR', '円': 'JPY', '元': 'CNY', 'руб': 'RUB', 'р.': 'RUB', 'TL': 'TRY',
};

/** Symbols several currencies share: resolved by the page language's region, else by its language. */
const SHARED: Record<string, { byRegion: Record<string, string>; byLanguage: Record<string, string>; fallback?: string }> = {
  $: {
    byRegion: { US: 'USD', CA: 'CAD', AU: 'AUD', NZ: 'NZD', MX: 'MXN', SG: 'SGD', HK: 'HKD', AR: 'ARS', CL: 'CLP', CO: 'COP', UY: 'UYU', TW: 'TWD' },
    byLanguage: { en: 'USD' },
  },
  kr: { byRegion: { SE: 'SEK', NO: 'NOK', DK: 'DKK', IS: 'ISK' }, byLanguage: { sv: 'SEK', nb: 'NOK', nn: 'NOK', no: 'NOK', da: 'DKK', is: 'ISK' } },
  '¥': { byRegion: { JP: 'JPY', CN: 'CNY' }, byLanguage: { ja: 'JPY', zh: 'CNY' } },
  R: { byRegion: { ZA: 'ZAR' }, byLanguage: {} },
};

/** Every symbol the price reader looks for, longest first (so `US$` wins over `$`). */
export const CURRENCY_SYMBOLS: string[] = [...Object.keys(UNAMBIGUOUS), ...Object.keys(SHARED)].sort((a, b) => b.length - a.length);

/**
 * The ISO code for what a page printed next to a price, or undefined when it cannot be told.
 * `lang` is the page's language tag (`en-GB`, `de`, …).
 */
export function currencyCode(raw: string, lang?: string | null): string | undefined {
  const t = raw.trim();
  const upper = t.toUpperCase();
  if (/^[A-Z]{3}$/.test(upper) && ISO_CODES.has(upper)) return upper;
  if (UNAMBIGUOUS[t]) return UNAMBIGUOUS[t];
  const shared = SHARED[t] ?? SHARED[t.toLowerCase()];
  if (!shared) return undefined;
  const [language, region] = (lang ?? '').split(/[-_]/);
  if (region && shared.byRegion[region.toUpperCase()]) return shared.byRegion[region.toUpperCase()];
  // A region the symbol does not know (en-GB with `$`): the page prices in a currency we cannot name.
  if (region) return undefined;
  return language ? shared.byLanguage[language.toLowerCase()] : shared.fallback;
}

/** Digits after the decimal point a currency's prices carry (ISO 4217 minor units; 2 when not listed). */
export const minorUnits = (code?: string): number => (code && ['KWD', 'BHD', 'OMR'].includes(code) ? 3 : 2);
