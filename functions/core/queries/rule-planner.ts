import type { QueryPlan } from '../sources/types.js';
import { DAY_MS, HOUR_MS, MINUTE_MS, WEEK_MS, resolveTimeWindow, type ResolvedTimeWindow } from './time-window.js';

/**
 * The deterministic planner: turns a natural-language prompt into a {@link QueryPlan} with
 * regular expressions and word lists only. Pure: the same (prompt, now, window) always gives
 * the same plan. It is the default planner and the fallback of the LLM planner.
 *
 * Extraction order (each step blanks what it consumed so later steps do not see it):
 * exclusions (`-word`, `-"phrase"`, `excluding word`), quoted phrases, URLs and e-mail
 * addresses (kept verbatim as phrases),
 * #hashtags, @mentions, platform references ("on Reddit"), language ("in Spanish"), time
 * phrases, then the remaining words become keywords.
 *
 * Case: keywords and excluded single words are lowercased; quoted text, hashtags and mentions
 * keep the user's case. Every list is in prompt order and de-duplicated case-insensitively (the
 * first occurrence wins).
 *
 * Time phrases (UTC calendar; ranges end at `now` at the latest):
 * - `today`, `yesterday`, `this week` (from Monday), `this month`, `this year`;
 * - `last|past|previous <unit>` and `last|past N <units>` (`last week`, `past 24 hours`,
 *   `last 3 days`, `last 90m`, `last month`): a rolling window ending now (months and years
 *   are calendar-aware: `last month` is the same day-of-month one month ago until now);
 * - `since <date>`, `before <date>`, `until <date>`, `in|during|on <date>`,
 *   `between <date> and <date>` / `from <date> to <date>`,
 *   where <date> is `2026-01-05`, `March`, `March 5`, `5 March`, `March 5, 2026`, `2025`,
 *   a weekday, `today` or `yesterday`. A date without a year is its most recent occurrence
 *   that starts at or before `now` (for `between`, at or before the second date).
 * The leftmost time phrase decides; one that yields an empty or future window is ignored.
 * An explicit `window` argument always wins over the prompt, but time phrases are still
 * removed from the keywords.
 */

/** English stop words (shared with the summary's top terms). Apostrophes are ASCII. */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all almost also am an and any anyone anything are aren't as at
  be because been before being below between both but by can can't cannot could couldn't did didn't
  do does doesn't doing don't dont done down during each either else etc even ever every few for from
  further get gets getting got had hadn't has hasn't have haven't having he he'd he'll he's her here
  here's hers herself him himself his how how's however i i'd i'll i'm i've im if in into is isn't it
  it'd it'll it's its itself just let's lets may me might more most much must mustn't my myself neither
  no nor not of off often on once one only or other others otherwise ought our ours ourselves out over
  own per quite rather really same shall shan't she she'd she'll she's should shouldn't since so some
  still such than that that's thats the their theirs them themselves then there there's these they
  they'd they'll they're they've this those though through thus to too under until up upon us very versus via vs
  was wasn't we we'd we'll we're we've were weren't what what's whatever when when's where where's
  whether which while who who's whom whose why why's will with within without won't would wouldn't yet
  you you'd you'll you're you've your yours yourself yourselves`.split(/\s+/).filter(Boolean),
);

/** Words that phrase the request rather than its subject ("find posts about …"). */
export const INSTRUCTION_WORDS: ReadonlySet<string> = new Set(
  `find finding show showing search searching look looking see give list fetch collect gather pull
  tell please want need help monitor track check
  post posts posted posting tweet tweets tweeted retweets content contents message messages comment
  comments video videos reel reels story stories thread threads update updates result results article
  articles item items
  mention mentions mentioning mentioned about regarding related relating concerning around containing
  contain contains include includes including tagged hashtag hashtags using
  what whats people person users user folks everyone someone somebody anybody everybody
  say says saying said talk talks talking discuss discusses discussing discussion discussions
  conversation conversations think thinks thinking thought feel feels feeling opinion opinions view views
  sentiment reaction reactions react reacting
  recent recently latest lately currently now ago anytime
  written language languages`.split(/\s+/).filter(Boolean),
);

/** Language names accepted in "in <Language>" and their ISO 639-1 codes. */
export const LANGUAGE_CODES: Readonly<Record<string, string>> = {
  arabic: 'ar', bengali: 'bn', bulgarian: 'bg', catalan: 'ca', chinese: 'zh', mandarin: 'zh', croatian: 'hr',
  czech: 'cs', danish: 'da', dutch: 'nl', english: 'en', estonian: 'et', farsi: 'fa', persian: 'fa',
  filipino: 'tl', tagalog: 'tl', finnish: 'fi', french: 'fr', german: 'de', greek: 'el', hebrew: 'he',
  hindi: 'hi', hungarian: 'hu', indonesian: 'id', irish: 'ga', italian: 'it', japanese: 'ja', korean: 'ko',
  latvian: 'lv', lithuanian: 'lt', malay: 'ms', norwegian: 'no', polish: 'pl', portuguese: 'pt',
  romanian: 'ro', russian: 'ru', serbian: 'sr', slovak: 'sk', slovenian: 'sl', spanish: 'es', swahili: 'sw',
  swedish: 'sv', tamil: 'ta', thai: 'th', turkish: 'tr', ukrainian: 'uk', urdu: 'ur', vietnamese: 'vi',
  welsh: 'cy',
};

const MONTHS: Record<string, number> = {
  january: 0, jan: 0, february: 1, feb: 1, march: 2, mar: 2, april: 3, apr: 3, may: 4, june: 5, jun: 5,
  july: 6, jul: 6, august: 7, aug: 7, september: 8, sept: 8, sep: 8, october: 9, oct: 9, november: 10,
  nov: 10, december: 11, dec: 11,
};
const WEEKDAYS: Record<string, number> = {
  sunday: 0, monday: 1, tuesday: 2, wednesday: 3, thursday: 4, friday: 5, saturday: 6,
};
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, fifteen: 15, twenty: 20, thirty: 30, few: 3, 'a few': 3, couple: 2,
  'a couple': 2, 'a couple of': 2, 'couple of': 2, several: 5,
};

// ---------------------------------------------------------------------------------------------
// Regular-expression building blocks (all matched case-insensitively, with the `u` flag).

const MONTH_RE = '(?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)';
const WEEKDAY_RE = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const ORD = '(?:st|nd|rd|th)?';
/** A date expression; its text is re-parsed by {@link parseDateExpr}. */
const DATE_RE =
  `(?:\\d{4}-\\d{2}-\\d{2}` +
  `|${MONTH_RE}\\.?(?:\\s+\\d{1,2}${ORD}(?!\\d))?(?:,?\\s+(?:19|20)\\d{2})?` +
  `|\\d{1,2}${ORD}\\s+(?:of\\s+)?${MONTH_RE}\\.?(?:,?\\s+(?:19|20)\\d{2})?` +
  `|(?:19|20)\\d{2}` +
  `|${WEEKDAY_RE}|today|yesterday)`;
const COUNT_RE = `(?:\\d+|a\\s+couple(?:\\s+of)?|couple(?:\\s+of)?|a\\s+few|few|several|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty)`;
const UNIT_RE = `(?:minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|wks?|w|months?|mos?|years?|yrs?|y)`;
const LEAD_RE = `(?:(?:in|over|during|for|within|from)\\s+the\\s+)?`;
const B = '(?<![\\p{L}\\p{N}_])'; // word start
const E = '(?![\\p{L}\\p{N}_])'; // word end

// ---------------------------------------------------------------------------------------------
// UTC calendar helpers.

const startOfDay = (t: number): number => {
  const d = new Date(t);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
};
const addMonths = (t: number, n: number): number => {
  const d = new Date(t);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + n;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
};

interface Range {
  start: number;
  end: number; // exclusive
}

/** A day, month or year as a half-open range; `NaN` start when the date does not exist. */
function dayRange(y: number, m: number, d: number): Range {
  const start = Date.UTC(y, m, d);
  const check = new Date(start);
  if (check.getUTCMonth() !== m || check.getUTCDate() !== d) return { start: NaN, end: NaN };
  return { start, end: start + DAY_MS };
}

/**
 * Parse a date expression matched by DATE_RE into a range. Expressions without a year resolve
 * to their most recent occurrence whose start is at or before `ref`.
 */
function parseDateExpr(text: string, ref: number): Range | undefined {
  const s = text.toLowerCase().replace(/\s+/g, ' ').trim();
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s))) {
    const r = dayRange(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
    return Number.isNaN(r.start) ? undefined : r;
  }
  if (s === 'today') return { start: startOfDay(ref), end: startOfDay(ref) + DAY_MS };
  if (s === 'yesterday') return { start: startOfDay(ref) - DAY_MS, end: startOfDay(ref) };
  if (s in WEEKDAYS) {
    const today = startOfDay(ref);
    const back = (new Date(today).getUTCDay() - WEEKDAYS[s] + 7) % 7;
    return { start: today - back * DAY_MS, end: today - back * DAY_MS + DAY_MS };
  }
  if ((m = /^((?:19|20)\d{2})$/.exec(s))) {
    const y = Number(m[1]);
    return { start: Date.UTC(y, 0, 1), end: Date.UTC(y + 1, 0, 1) };
  }
  let month: string | undefined;
  let day: number | undefined;
  let year: number | undefined;
  if ((m = /^([a-z]+)\.?(?: (\d{1,2})(?:st|nd|rd|th)?)?(?:,? (\d{4}))?$/.exec(s))) {
    month = m[1];
    day = m[2] ? Number(m[2]) : undefined;
    year = m[3] ? Number(m[3]) : undefined;
  } else if ((m = /^(\d{1,2})(?:st|nd|rd|th)? (?:of )?([a-z]+)\.?(?:,? (\d{4}))?$/.exec(s))) {
    day = Number(m[1]);
    month = m[2];
    year = m[3] ? Number(m[3]) : undefined;
  }
  if (month === undefined || !(month in MONTHS)) return undefined;
  const mi = MONTHS[month];
  const rangeIn = (y: number): Range =>
    day === undefined ? { start: Date.UTC(y, mi, 1), end: Date.UTC(y, mi + 1, 1) } : dayRange(y, mi, day);
  if (year !== undefined) {
    const r = rangeIn(year);
    return Number.isNaN(r.start) ? undefined : r;
  }
  // Most recent occurrence starting at or before ref (look back far enough for Feb 29).
  const refYear = new Date(ref).getUTCFullYear();
  for (let y = refYear; y >= refYear - 8; y--) {
    const r = rangeIn(y);
    if (!Number.isNaN(r.start) && r.start <= ref) return r;
  }
  return undefined;
}

function parseCount(text: string): number {
  const s = text.toLowerCase().replace(/\s+/g, ' ').trim();
  return /^\d+$/.test(s) ? Number(s) : (NUMBER_WORDS[s] ?? NaN);
}

/** Start of a rolling window of `n` units ending at `now`. */
function rollingStart(now: number, n: number, unitText: string): number {
  const u = unitText.toLowerCase();
  if (/^(?:minutes?|mins?|m)$/.test(u)) return now - n * MINUTE_MS;
  if (/^(?:hours?|hrs?|h)$/.test(u)) return now - n * HOUR_MS;
  if (/^(?:days?|d)$/.test(u)) return now - n * DAY_MS;
  if (/^(?:weeks?|wks?|w)$/.test(u)) return now - n * WEEK_MS;
  if (/^(?:months?|mos?)$/.test(u)) return addMonths(now, -n);
  return addMonths(now, -12 * n); // years
}

interface TimeRule {
  re: () => RegExp;
  /** Window for a match, or undefined when it does not make sense. */
  resolve(m: RegExpExecArray, now: number): { since: number; until: number } | undefined;
}

// Compiled on first use: this module is imported (through the query and job records) by API
// functions that never plan a query, and building these unicode patterns at import cost about
// 2.5 ms of each one's cold start.
const rx = (source: string): (() => RegExp) => {
  let re: RegExp | undefined;
  return () => (re ??= new RegExp(source, 'giu'));
};
const capped = (r: Range | undefined, now: number) => (r ? { since: r.start, until: Math.min(r.end, now) } : undefined);

/** Time rules, most specific first; each match is blanked before the next rule runs. */
const TIME_RULES: TimeRule[] = [
  {
    re: rx(`${B}(?:between|from)\\s+(${DATE_RE})\\s+(?:and|to|until|till|through|thru|-)\\s+(${DATE_RE})${E}`),
    resolve: (m, now) => {
      const to = parseDateExpr(m[2], now);
      const from = to && parseDateExpr(m[1], to.start);
      return from && to ? { since: from.start, until: Math.min(to.end, now) } : undefined;
    },
  },
  {
    re: rx(`${B}${LEAD_RE}(?:last|past|previous|prior)\\s+(${COUNT_RE})\\s*(${UNIT_RE})${E}`),
    resolve: (m, now) => {
      const n = parseCount(m[1]);
      return n > 0 ? { since: rollingStart(now, n, m[2]), until: now } : undefined;
    },
  },
  {
    re: rx(`${B}${LEAD_RE}(?:last|past|previous|prior)\\s+(minute|hour|day|week|fortnight|month|year)${E}`),
    resolve: (m, now) => {
      const unit = m[1].toLowerCase();
      return unit === 'fortnight'
        ? { since: now - 2 * WEEK_MS, until: now }
        : { since: rollingStart(now, 1, unit), until: now };
    },
  },
  {
    re: rx(`${B}since\\s+(${DATE_RE})${E}`),
    resolve: (m, now) => {
      const r = parseDateExpr(m[1], now);
      return r ? { since: r.start, until: now } : undefined;
    },
  },
  {
    re: rx(`${B}(before|until|till)\\s+(${DATE_RE})${E}`),
    resolve: (m, now) => {
      const r = parseDateExpr(m[2], now);
      if (!r) return undefined;
      const until = Math.min(m[1].toLowerCase() === 'before' ? r.start : r.end, now);
      return { since: until - 7 * DAY_MS, until };
    },
  },
  {
    re: rx(`${B}(?:in|during|on|from)\\s+(${DATE_RE})${E}`),
    resolve: (m, now) => capped(parseDateExpr(m[1], now), now),
  },
  {
    re: rx(`${B}this\\s+(week|month|year)${E}`),
    resolve: (m, now) => {
      const d = new Date(now);
      const unit = m[1].toLowerCase();
      if (unit === 'month') return { since: Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), until: now };
      if (unit === 'year') return { since: Date.UTC(d.getUTCFullYear(), 0, 1), until: now };
      const today = startOfDay(now);
      return { since: today - ((d.getUTCDay() + 6) % 7) * DAY_MS, until: now }; // ISO week: Monday
    },
  },
  { re: rx(`${B}(?:so\\s+far\\s+)?today${E}`), resolve: (_m, now) => ({ since: startOfDay(now), until: now }) },
  { re: rx(`${B}yesterday${E}`), resolve: (_m, now) => ({ since: startOfDay(now) - DAY_MS, until: startOfDay(now) }) },
];

// ---------------------------------------------------------------------------------------------
// Text extraction.

const QUOTE_OPEN = '["\u201C\u201E]';
const QUOTE_CLOSE = '["\u201D\u201C]';
const QUOTED = `${QUOTE_OPEN}([^"\u201C\u201D\u201E]+)${QUOTE_CLOSE}`;
const EXCLUDE_WORD = `[#@]?[\\p{L}\\p{N}][\\p{L}\\p{N}_'\u2019.+-]*`;
const PLATFORMS = '(?:twitter|x|reddit|linkedin|youtube|tiktok|instagram|insta|ig|facebook|fb|threads)';

const EXCLUDE_RE = rx(`(^|\\s)-(?:${QUOTED}|(${EXCLUDE_WORD}))`);
const EXCLUDE_WORDY_RE = rx(`${B}(?:excluding|except(?:\\s+for)?|but\\s+not)\\s+(?:${QUOTED}|(${EXCLUDE_WORD}))`);
const PHRASE_RE = rx(QUOTED);
const URL_RE = rx(`${B}(?:https?:\\/\\/|www\\.)[^\\s"'<>\u201C\u201D]+`);
const EMAIL_RE = rx(`${B}[\\p{L}\\p{N}._%+-]+@[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)+`);
const HASHTAG_RE = rx(`(?<![\\p{L}\\p{N}_&#/])#((?=[\\p{N}_]*\\p{L})[\\p{L}\\p{N}_]+)`);
const MENTION_RE = rx(`(?<![\\p{L}\\p{N}_.@/])@([A-Za-z0-9_](?:[A-Za-z0-9_.]*[A-Za-z0-9_])?)`);
const PLATFORM_REF_RE = rx(`${B}(?:on|from|across|via|in)\\s+${PLATFORMS}${E}`);
const PLATFORM_CONTENT_RE = rx(`${B}${PLATFORMS}(?=\\s+(?:posts?|tweets?|videos?|threads?|comments?|reels?|stories|users|accounts?)${E})`);
const LANGUAGE_RE = rx(`${B}(?:written\\s+)?in\\s+(${Object.keys(LANGUAGE_CODES).join('|')})(?:\\s+language)?${E}`);
const TOKEN_RE = rx(`[\\p{L}\\p{N}][\\p{L}\\p{N}_'\u2019.+-]*`);

/** Replace every match with spaces of the same length, so offsets of later matches stay stable. */
function blank(text: string, start: number, length: number): string {
  return text.slice(0, start) + ' '.repeat(length) + text.slice(start + length);
}

/** Run a global regex over `text`, call `take` for each match, return the text with matches blanked. */
function consume(text: string, re: RegExp, take: (m: RegExpExecArray) => void, keepLead = false): string {
  re.lastIndex = 0;
  const matches = [...text.matchAll(re)];
  let out = text;
  for (const m of matches) {
    take(m);
    // For patterns that begin with a captured lookbehind-like group ((^|\s)), keep that char.
    const lead = keepLead ? (m[1] ?? '').length : 0;
    out = blank(out, m.index + lead, m[0].length - lead);
  }
  return out;
}

const normalizeApostrophes = (s: string) => s.replace(/\u2019/g, "'");
const collapse = (s: string) => s.replace(/\s+/g, ' ').trim();
const trimWord = (s: string) => normalizeApostrophes(s).replace(/['.+_-]+$/u, '').replace(/'s$/u, '');

/** Values found at text offsets; listed in text order, de-duplicated case-insensitively. */
class OrderedTerms {
  private readonly found: Array<{ index: number; value: string }> = [];
  add(value: string, index: number): void {
    if (value) this.found.push({ index, value });
  }
  get items(): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    for (const { value } of [...this.found].sort((a, b) => a.index - b.index)) {
      const key = value.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(value);
    }
    return out;
  }
}

/**
 * Plan a query from a natural-language prompt, deterministically.
 * @param prompt the user's request
 * @param now the reference instant for relative time phrases
 * @param window an explicit request window; wins over any time phrase in the prompt
 */
export function planFromPrompt(prompt: string, now: Date, window?: ResolvedTimeWindow): QueryPlan {
  const nowMs = now.getTime();
  const keywords = new OrderedTerms();
  const phrases = new OrderedTerms();
  const hashtags = new OrderedTerms();
  const mentions = new OrderedTerms();
  const exclude = new OrderedTerms();
  let language: string | undefined;

  const addExclusion = (index: number, quoted: string | undefined, word: string | undefined) => {
    if (quoted !== undefined) exclude.add(collapse(quoted), index);
    else if (word !== undefined) exclude.add(trimWord(word).toLowerCase(), index);
  };

  let text = prompt.normalize('NFC');
  text = consume(text, EXCLUDE_RE(), (m) => addExclusion(m.index, m[2], m[3]), true);
  text = consume(text, EXCLUDE_WORDY_RE(), (m) => addExclusion(m.index, m[1], m[2]));
  text = consume(text, PHRASE_RE(), (m) => phrases.add(collapse(m[1]), m.index));
  text = consume(text, URL_RE(), (m) => phrases.add(m[0].replace(/[.,;:!?)\]]+$/u, ''), m.index));
  text = consume(text, EMAIL_RE(), (m) => phrases.add(m[0], m.index));
  text = consume(text, HASHTAG_RE(), (m) => hashtags.add(m[1], m.index));
  text = consume(text, MENTION_RE(), (m) => mentions.add(m[1], m.index));
  text = consume(text, PLATFORM_REF_RE(), () => {});
  text = consume(text, PLATFORM_CONTENT_RE(), () => {});
  text = consume(text, LANGUAGE_RE(), (m) => {
    language ??= LANGUAGE_CODES[m[1].toLowerCase()];
  });

  // Time phrases: every rule blanks its matches; the leftmost valid one decides.
  const candidates: Array<{ index: number; since: number; until: number }> = [];
  for (const rule of TIME_RULES) {
    text = consume(text, rule.re(), (m) => {
      const w = rule.resolve(m, nowMs);
      if (w && Number.isFinite(w.since) && Number.isFinite(w.until) && w.since < w.until && w.since <= nowMs) {
        candidates.push({ index: m.index, ...w });
      }
    });
  }
  let resolved: ResolvedTimeWindow;
  if (window) {
    resolved = { since: window.since, until: window.until };
  } else if (candidates.length > 0) {
    const first = candidates.reduce((a, b) => (b.index < a.index ? b : a));
    resolved = { since: new Date(first.since).toISOString(), until: new Date(first.until).toISOString() };
  } else {
    resolved = resolveTimeWindow(undefined, now);
  }

  for (const m of text.toLowerCase().matchAll(TOKEN_RE())) {
    const word = trimWord(m[0]);
    if (!word || ENGLISH_STOP_WORDS.has(word) || INSTRUCTION_WORDS.has(word)) continue;
    if (word.length < 2 && !/^\p{N}$/u.test(word)) continue;
    keywords.add(word, m.index);
  }

  return {
    keywords: keywords.items,
    phrases: phrases.items,
    hashtags: hashtags.items,
    mentions: mentions.items,
    exclude: exclude.items,
    ...(language ? { language } : {}),
    since: resolved.since,
    until: resolved.until,
  };
}
