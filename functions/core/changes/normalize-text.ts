/**
 * What changes on every load of a page without meaning, taken out of a line before two versions
 * are compared (API.md "Change tracking"). Each rule is narrow on purpose: a real edit of one
 * sentence, one price or one table cell must still differ after normalisation, so digits are
 * never removed wholesale; only numbers that are part of a relative time ("5 minutes ago"), a
 * clock time with seconds, a full timestamp, or a date on a line that says it is a render time
 * ("Last updated: …", "Generated …") become a token.
 */

/** Query parameters that only track the visitor or the campaign. */
const TRACKING_PARAM = /^(utm_[a-z0-9_]+|fbclid|gclid|gclsrc|dclid|msclkid|yclid|twclid|ttclid|igshid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok|ref_src|vero_id|oly_enc_id|oly_anon_id|wickedid|srsltid)$/i;
/** Query parameters that carry a session. */
const SESSION_PARAM = /^(jsessionid|phpsessid|sid|sessionid|session_id|sessid|aspsessionid[a-z]*|cfid|cftoken|s_id|zenid|osCsid)$/i;
/** Query parameters that only defeat caches, when their value looks like a number or a hash. */
const BUSTER_PARAM = /^(v|ver|version|ts|t|_|cb|cachebust|cachebuster|cache|nocache|rnd|rand|random|timestamp|time|hash|rev|bust|_dc|nonce)$/i;
const BUSTER_VALUE = /^(\d{1,20}|[0-9a-f]{6,64}|[0-9a-z_-]{16,64})$/i;

/**
 * A URL without tracking, session and cache-busting parameters, and without `;jsessionid=…`
 * path parameters. Anything that does not parse as a URL is returned as it was.
 */
export function cleanUrl(raw: string): string {
  const semi = raw.replace(/;(jsessionid|phpsessid|sid)=[^?#/]*/gi, '');
  const q = semi.indexOf('?');
  if (q < 0) return semi;
  const hashAt = semi.indexOf('#', q);
  const base = semi.slice(0, q);
  const query = semi.slice(q + 1, hashAt < 0 ? undefined : hashAt);
  const frag = hashAt < 0 ? '' : semi.slice(hashAt);
  const kept = query
    .split('&')
    .filter((pair) => {
      if (!pair) return false;
      const eq = pair.indexOf('=');
      let name = eq < 0 ? pair : pair.slice(0, eq);
      let value = eq < 0 ? '' : pair.slice(eq + 1);
      try {
        name = decodeURIComponent(name);
        value = decodeURIComponent(value);
      } catch {
        /* keep the raw text */
      }
      if (TRACKING_PARAM.test(name) || SESSION_PARAM.test(name)) return false;
      if (BUSTER_PARAM.test(name) && (value === '' || BUSTER_VALUE.test(value))) return false;
      return true;
    })
    .sort();
  return base + (kept.length ? `?${kept.join('&')}` : '') + frag;
}

// Markdown link and image targets `](url "title")`, autolinks `<https://…>` and bare URLs.
const MD_TARGET = /\]\(\s*<?([^)\s>]+)>?(\s+"[^"]*")?\s*\)/g;
const BARE_URL = /\bhttps?:\/\/[^\s<>()"'\]]+/g;

/** Every link and image URL of a markdown line cleaned by {@link cleanUrl}. */
export function cleanUrlsIn(line: string): string {
  return line.replace(MD_TARGET, (_m, url: string, title?: string) => `](${cleanUrl(url)}${title ?? ''})`).replace(BARE_URL, (u) => cleanUrl(u));
}

const NUM_WORD = '(?:\\d+(?:[.,]\\d+)?|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|a few|few|several|some|a couple of|couple of)';
const UNIT = '(?:seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h|days?|d|weeks?|wks?|w|months?|mos?|years?|yrs?|y)';
const RELATIVE: RegExp[] = [
  // "5 minutes ago", "an hour ago", "3h ago", "2 days, 4 hours ago", "about 3 hours ago"
  new RegExp(`\\b(?:about |almost |over |nearly |less than |more than )?${NUM_WORD}\\s*${UNIT}\\.?(?:,?\\s*(?:and\\s+)?${NUM_WORD}\\s*${UNIT}\\.?)*\\s+ago\\b`, 'gi'),
  // "5 minutes from now", "3 hrs left"
  new RegExp(`\\b${NUM_WORD}\\s*${UNIT}\\.?\\s+(?:from now|left|remaining)\\b`, 'gi'),
  /\b(?:just now|right now|moments? ago|a moment ago|seconds ago|a while ago|recently|yesterday|today|tonight|tomorrow|this (?:morning|afternoon|evening)|last (?:night|week|month|year)|(?:earlier|later) today)\b/gi,
  // Abbreviated "5m", "3h" standing alone after a bullet or "updated" / "posted"
  /\b(?:updated|posted|edited|modified|published|seen|active|online|refreshed)\s+\d+\s*[smhdw]\b/gi,
];

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const WEEKDAY = '(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?';
// Full timestamps: ISO 8601 with a time, RFC 1123 / HTTP dates, "2026-11-28 14:03:22".
const TIMESTAMP = new RegExp(
  [
    '\\b\\d{4}-\\d{2}-\\d{2}[t ]\\d{1,2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?\\s*(?:z|utc|gmt|[+-]\\d{2}:?\\d{2})?',
    `\\b${WEEKDAY}\\s+\\d{1,2}\\s+${MONTH}\\s+\\d{4}\\s+\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\s*(?:gmt|utc|[+-]\\d{4}))?`,
  ].join('|'),
  'gi',
);
// A clock time with seconds ("14:03:22", "2:03:22 pm"): almost always when the page was made.
const CLOCK_SECONDS = /\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d{1,6})?(?:\s*[ap]\.?m\.?)?(?:\s*(?:z|utc|gmt|[a-z]{2,4}t))?\b/gi;
// A line that says it shows when the page was made, fetched or refreshed.
const RENDER_TIME_LINE = /\b(?:last\s+)?(?:updated|refreshed|generated|rendered|fetched|retrieved|loaded|served|cached|built|synced|checked|crawled|modified)\b(?:\s+(?:at|on|in))?|\bas (?:of|at)\b|\b(?:current|server|local)\s+(?:time|date)\b|\btoday is\b|\btime\s*stamp\b|\bpage\s+(?:generated|built|rendered)\b/i;
// Live counters ("1,234 views", "12 people are viewing this"): they move on every load.
const COUNTER_LINE = /\b(?:views?|viewed|visitors?|viewing|watching|online now|page ?views|impressions|hits)\b/i;
const COUNT = /\b\d{1,3}(?:[,.\s]\d{3})*(?:\.\d+)?\s*[km]?\b/gi;
const DATE_ANY = new RegExp(
  [
    '\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b',
    '\\b\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}\\b',
    `\\b(?:${WEEKDAY}\\s+)?${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?(?:\\s+\\d{4})?\\b`,
    `\\b(?:${WEEKDAY}\\s+)?\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?(?:\\s+\\d{4})?\\b`,
    '\\b\\d{1,2}:\\d{2}(?:\\s*[ap]\\.?m\\.?)?(?:\\s*(?:z|utc|gmt|[a-z]{2,4}t))?\\b',
    '\\b\\d+(?:[.,]\\d+)?\\s*(?:ms|milliseconds?|s|sec(?:ond)?s?)\\b',
  ].join('|'),
  'gi',
);
// Request ids, nonces and trace ids on lines that name them.
const ID_LINE = /\b(?:request|trace|correlation|session|nonce|csrf|build|cache|ray)\s*(?:id|token|key)?\b/i;
const OPAQUE_ID = /\b(?=[0-9a-z_-]*\d)(?=[0-9a-z_-]*[a-z])[0-9a-z_-]{12,}\b/gi;

/** Relative times, timestamps and clock times of one line replaced by one token. */
export function neutralizeTimes(line: string): string {
  let out = line;
  for (const re of RELATIVE) out = out.replace(re, '⟨time⟩');
  out = out.replace(TIMESTAMP, '⟨time⟩').replace(CLOCK_SECONDS, '⟨time⟩');
  if (RENDER_TIME_LINE.test(out)) out = out.replace(DATE_ANY, '⟨time⟩');
  if (ID_LINE.test(out)) out = out.replace(OPAQUE_ID, (m) => (/^⟨/.test(m) ? m : '⟨id⟩'));
  if (COUNTER_LINE.test(out) && !/\$|€|£|¥|\bprice\b/i.test(out)) out = out.replace(COUNT, '⟨n⟩');
  // Copyright years roll over on their own: "© 2024–2026" is not an edit.
  out = out.replace(/(?:©|\(c\)|copyright)\s*\d{4}(?:\s*[-–]\s*\d{4})?/gi, '©');
  return out;
}

/** Whitespace of a line made canonical: NBSP and zero-width characters, runs collapsed, trimmed. */
export function squeezeSpace(line: string): string {
  return line.replace(/[\u200B-\u200D\uFEFF\u00AD]/g, '').replace(/[\s\u00A0\u2000-\u200A\u202F\u205F\u3000]+/g, ' ').trim();
}

/** A removal rule of the tenant (`ignore_patterns`), already compiled. */
export type LineFilter = (line: string) => string;

/**
 * The comparison key of one markdown line: whitespace squeezed, the tenant's patterns removed,
 * tracking params cleaned, times neutralised. An empty key means the line does not count.
 */
export function lineKey(line: string, filters: readonly LineFilter[] = []): string {
  // The tenant's patterns see the text as the page shows it (before any token replaces a time).
  let out = squeezeSpace(line);
  for (const f of filters) out = f(out);
  out = neutralizeTimes(cleanUrlsIn(out));
  out = squeezeSpace(out);
  // A line left with only markdown punctuation (a bullet whose text was removed) does not count.
  return /^[\s*_>#|:\-–—.,;·•]*$/.test(out) ? '' : out;
}

/** A string value of structured data compared the same way (fields of json / extracted data). */
export function valueKey(value: string, filters: readonly LineFilter[] = []): string {
  return lineKey(value, filters);
}
