// What the service says, in words a person reads: a run's failure ("connect ECONNREFUSED …
// (worker_failed)" -> "The site did not accept the connection"), with the service's own words
// kept as the detail; and times in words, in a given IANA zone and the viewer's own.

/**
 * Causes found in a failure's message, first match wins: the network errors Node reports, the
 * engine's own failures, then the run-level codes. Each is [pattern over "message (code)", words].
 */
const CAUSES = [
  [/ECONNREFUSED/i, 'The site did not accept the connection (nothing answered at that address and port).'],
  [/ECONNRESET|socket hang up|EPIPE|UND_ERR_SOCKET|other side closed/i, 'The site closed the connection before it answered.'],
  [/ENOTFOUND|EAI_AGAIN|ENODATA|target_unresolvable/i, 'The site\'s name could not be found (no such host, or DNS did not answer).'],
  [/ETIMEDOUT|UND_ERR_(CONNECT|HEADERS|BODY)_TIMEOUT|timed out|timeout|time-out/i, 'The site took too long to answer.'],
  [/EHOSTUNREACH|ENETUNREACH/i, 'The site could not be reached from here (no route to it).'],
  [/CERT_|certificate|SSL|TLS/i, 'The site\'s secure connection (its certificate) could not be checked.'],
  [/target_forbidden|private address|not a public|non-public|not unicast/i, 'The address is not a public site: the egress guard refuses private, local and reserved addresses.'],
  [/target_not_authorized|not on (the|your) allowlist|allowlist/i, 'The site is not on your target policy\'s allowlist (Settings → Target policy).'],
  [/robots/i, 'The site\'s robots.txt does not allow Gleaner to fetch it.'],
  [/challenge|captcha/i, 'The site answered with a challenge or CAPTCHA (never solved).'],
  [/response_too_large|exceeds the \d+-byte limit/i, 'The page is larger than the size limit.'],
  [/too_many_redirects|redirects starting at/i, 'The page redirected too many times.'],
  [/document_too_large/i, 'The document is larger than the size or page limit.'],
  [/model_not_configured/i, 'Model extraction was asked for, but no model provider is configured.'],
  [/quota_exceeded|billing/i, 'The month\'s quota is used up.'],
  [/cancel/i, 'The run was cancelled.'],
];

/** Run-level codes whose cause lies in the message: what to say when no cause is recognised. */
const BY_CODE = {
  worker_failed: 'The run failed after retries.',
  scrape_failed: 'The page could not be fetched.',
  timed_out: 'The run took longer than its time limit.',
  invalid_request: 'The run\'s input was not accepted.',
  challenge: 'The site answered with a challenge or CAPTCHA (never solved).',
};

/**
 * A failure ({code, message} or a message) in words: { text, detail }. `text` is a sentence a
 * person reads; `detail` is what the service said (message and code), kept for whoever needs it.
 */
export function failureWords(error) {
  if (!error) return { text: '', detail: '' };
  const message = typeof error === 'string' ? error : String(error.message ?? '');
  const code = typeof error === 'object' && error.code ? String(error.code) : '';
  const both = `${message} (${code})`;
  const found = CAUSES.find(([re]) => re.test(both));
  const text = found ? found[1] : BY_CODE[code] ?? (message ? `${message.replace(/\s*\.?$/, '')}.` : 'Something went wrong.');
  const detail = [message, code ? `code ${code}` : ''].filter(Boolean).join(' · ');
  return { text, detail };
}

/** The viewer's IANA zone (the browser's). */
export const viewerZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

const parts = (d, zone, opts) => {
  try {
    return new Intl.DateTimeFormat('en-GB', { timeZone: zone, ...opts }).format(d);
  } catch {
    return new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', ...opts }).format(d);
  }
};

/** The calendar day of `d` in `zone`, as a number of days (to say "today", "tomorrow"). */
const dayNumber = (d, zone) => {
  const [y, m, day] = parts(d, zone, { year: 'numeric', month: '2-digit', day: '2-digit' }).split('/').reverse().map(Number);
  return Date.UTC(y, m - 1, day) / 86_400_000;
};

/** "today", "tomorrow", "yesterday", else "Thu 3 Dec" (with the year when it is not this year's). */
function dayWords(d, zone, now) {
  const diff = dayNumber(d, zone) - dayNumber(now, zone);
  if (diff === 0) return 'today';
  if (diff === 1) return 'tomorrow';
  if (diff === -1) return 'yesterday';
  const sameYear = parts(d, zone, { year: 'numeric' }) === parts(now, zone, { year: 'numeric' });
  return parts(d, zone, { weekday: 'short', day: 'numeric', month: 'short', ...(sameYear ? {} : { year: 'numeric' }) }).replace(',', '');
}

const clock = (d, zone) => parts(d, zone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "in 5 minutes", "3 hours ago", "just now". */
export function relativeWords(d, now = new Date()) {
  const s = Math.round((d.getTime() - now.getTime()) / 1000);
  const a = Math.abs(s);
  if (a < 45) return 'just now';
  const [n, unit] = a < 3600 ? [Math.round(a / 60), 'minute'] : a < 86_400 ? [Math.round(a / 3600), 'hour'] : [Math.round(a / 86_400), 'day'];
  const w = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return s > 0 ? `in ${w}` : `${w} ago`;
}

/**
 * A moment in words in the viewer's zone: "today at 09:15", "Thu 3 Dec at 08:00",
 * "12 Mar 2025 at 17:02". Unparseable input is returned as given.
 */
export function whenWords(iso, { zone = viewerZone(), now = new Date() } = {}) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${dayWords(d, zone, now)} at ${clock(d, zone)}`;
}

/**
 * A moment as it reads in a job's zone and the viewer's: "tomorrow at 09:00 Europe/Berlin
 * (08:00 your time, in 9 hours)". When both zones tell the same time, the zone is said once.
 */
export function zonedWords(iso, zone, { viewer = viewerZone(), now = new Date(), relative = true } = {}) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  const z = zone || 'UTC';
  const there = `${dayWords(d, z, now)} at ${clock(d, z)} ${z.replace(/_/g, ' ')}`;
  // The day as each reader says it ("tomorrow" there may be "today" here): said again only when it differs.
  const sameDay = dayWords(d, z, now) === dayWords(d, viewer, now);
  const mine = sameDay && clock(d, z) === clock(d, viewer) ? null : sameDay ? `${clock(d, viewer)} your time` : `${dayWords(d, viewer, now)} at ${clock(d, viewer)} your time`;
  const rel = relative ? relativeWords(d, now) : null;
  const extra = [mine, rel].filter(Boolean).join(', ');
  return extra ? `${there} (${extra})` : there;
}

/** A query's time window in words: { last: "7d" } -> "the last 7 days"; { since, until } -> "from … to …". */
export function windowWords(w) {
  if (!w || typeof w !== 'object') return 'default';
  if (typeof w.last === 'string') {
    const m = /^(\d+)([hdwm])$/.exec(w.last);
    const unit = { h: 'hour', d: 'day', w: 'week', m: 'month' }[m?.[2]];
    return m && unit ? `the last ${m[1] === '1' ? unit : `${m[1]} ${unit}s`}` : `the last ${w.last}`;
  }
  const parts = [];
  if (w.since) parts.push(`from ${whenWords(w.since)}`);
  if (w.until) parts.push(`until ${whenWords(w.until)}`);
  return parts.join(' ') || 'default';
}
