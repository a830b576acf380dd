import { currencyCode } from './currency.js';
import { PRICE_RE } from './price.js';
import type { JobPostingFields } from './types.js';

type Salary = NonNullable<JobPostingFields['base_salary']>;

const RATE: [RegExp, string][] = [
  [/\b(per hour|an hour|hourly|\/\s?h(?:ou)?r|pro stunde|stündlich|de l'heure|por hora|all'ora|per uur)\b/i, 'hourly'],
  [/\b(per day|a day|daily|\/\s?day|pro tag|par jour|por día)\b/i, 'daily'],
  [/\b(per week|a week|weekly|\/\s?w(?:ee)?k|pro woche|par semaine|por semana)\b/i, 'weekly'],
  [/\b(per month|a month|monthly|\/\s?mo(?:nth)?|pro monat|monatlich|par mois|mensuel|al mes|mensile|per maand)\b/i, 'monthly'],
  [/\b(per year|a year|yearly|annual(?:ly)?|per annum|p\.?a\.?|\/\s?y(?:ea)?r|pro jahr|jährlich|par an|annuel|al año|anual|annuo|per jaar)\b/i, 'yearly'],
];

/** `59K`, `59,000`, `59.000` → `"59000.00"`. */
function amount(num: string, k: boolean): string | undefined {
  const n = Number(num.replace(/[\s\u00a0,.'](?=\d{3}\b)/g, '').replace(',', '.'));
  if (!Number.isFinite(n) || n <= 0) return undefined;
  return (k ? n * 1000 : n).toFixed(2);
}

/**
 * A salary as written (`$59K-$99K`, `€50.000 – 60.000 pro Jahr`, `£14.50 an hour`): the raw text,
 * the bounds as decimal strings, the ISO currency when its symbol decides it, the rate. Text with
 * no amount gives only `raw`.
 */
export function parseSalary(raw: string, lang?: string): Salary {
  const s: Salary = { raw: raw.trim() };
  const nums = [...raw.matchAll(/(\d[\d\s\u00a0,.']*)\s?([kK])?\b/g)].map((m) => amount(m[1].trim(), Boolean(m[2]))).filter((x): x is string => Boolean(x));
  const cur = PRICE_RE.exec(raw);
  PRICE_RE.lastIndex = 0;
  const sym = cur ? (cur[1] ?? cur[4]) : undefined;
  const code = sym ? currencyCode(sym.trim(), lang) : undefined;
  if (code) s.currency = code;
  if (nums.length >= 1 && nums.length <= 2) {
    const sorted = [...nums].sort((a, b) => Number(a) - Number(b));
    s.value_min = sorted[0];
    s.value_max = sorted[sorted.length - 1];
  }
  for (const [re, rate] of RATE) if (re.test(raw)) {
    s.rate_type = rate;
    break;
  }
  return s;
}
