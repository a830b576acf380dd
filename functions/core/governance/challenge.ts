/** Kinds recorded in a captcha encounter (API.md "Captcha"). */
export type ChallengeKind = 'recaptcha' | 'hcaptcha' | 'turnstile' | 'cloudflare_challenge' | 'unknown';

/** A detected challenge: what it is and which marker gave it away. */
export interface Challenge {
  kind: ChallengeKind;
  reason: string;
}

/** The response as the engine sees it. */
export interface ChallengeInput {
  status: number;
  headers: Record<string, string> | Headers;
  html: string;
}

// Statuses bot walls answer with. A widget on such a response is in the way of the content.
const BLOCK_STATUSES = new Set([403, 429, 503]);
// Below this much visible text, a page carrying a CAPTCHA widget is the wall itself, not a page
// that happens to embed one (a contact form, a comment box).
const THIN_TEXT_CHARS = 1000;

interface Marker {
  kind: ChallengeKind;
  pattern: RegExp;
  what: string;
  /** true: conclusive at any status. false: only on a block status or a thin page. */
  conclusive: boolean;
}

// Order matters: Cloudflare's interstitial also loads Turnstile from challenges.cloudflare.com, and
// we want to report it as the challenge it is.
const MARKERS: Marker[] = [
  { kind: 'cloudflare_challenge', pattern: /window\._cf_chl_opt|_cf_chl_opt\s*=/, what: 'Cloudflare _cf_chl_opt challenge script', conclusive: true },
  { kind: 'cloudflare_challenge', pattern: /<title>\s*Just a moment\.\.\.\s*<\/title>/i, what: 'Cloudflare "Just a moment..." interstitial', conclusive: false },
  { kind: 'cloudflare_challenge', pattern: /\/cdn-cgi\/challenge-platform\/|cf-browser-verification|cf_chl_/i, what: 'Cloudflare challenge platform', conclusive: false },
  { kind: 'cloudflare_challenge', pattern: /Attention Required! \| Cloudflare|cf-error-details/i, what: 'Cloudflare block page', conclusive: false },
  { kind: 'turnstile', pattern: /class=["'][^"']*\bcf-turnstile\b|challenges\.cloudflare\.com\/turnstile/i, what: 'Cloudflare Turnstile widget', conclusive: false },
  { kind: 'cloudflare_challenge', pattern: /challenges\.cloudflare\.com/i, what: 'challenges.cloudflare.com resource', conclusive: false },
  { kind: 'hcaptcha', pattern: /class=["'][^"']*\bh-captcha\b|(?:js\.)?hcaptcha\.com\/1\/api\.js|newassets\.hcaptcha\.com/i, what: 'hCaptcha widget', conclusive: false },
  { kind: 'recaptcha', pattern: /class=["'][^"']*\bg-recaptcha\b|(?:google\.com|recaptcha\.net)\/recaptcha\/(?:api|enterprise)[^"']*\.js(?!\?render=(?!explicit))/i, what: 'reCAPTCHA widget', conclusive: false },
];

const HUMAN_CHECK = /verify (?:that )?you(?: are|'re| re) (?:a )?human|are you a robot|prove you(?: are|'re) (?:a )?human|human verification/i;

function header(headers: ChallengeInput['headers'], name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? '';
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return '';
}

/** Visible text length, roughly: scripts, styles and tags stripped, whitespace collapsed. */
function visibleTextLength(html: string): number {
  return html
    .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&[a-z#0-9]+;/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim().length;
}

/**
 * Detect a bot challenge or CAPTCHA wall in a response. A challenge is reported when Cloudflare
 * says so (`cf-mitigated: challenge`, the `_cf_chl_opt` script), or when a challenge/CAPTCHA
 * marker appears on a response that is blocked (403/429/503) or has almost no content. A normal
 * page that mentions "captcha", or embeds a widget in a form beside real content, is not a wall.
 * Detection only: nothing here (or anywhere in Gleaner) solves a challenge.
 */
export function detectChallenge(p: ChallengeInput): Challenge | null {
  if (header(p.headers, 'cf-mitigated').toLowerCase() === 'challenge') {
    return { kind: 'cloudflare_challenge', reason: `cf-mitigated: challenge header (status ${p.status})` };
  }
  const blocked = BLOCK_STATUSES.has(p.status);
  let thin: boolean | undefined;
  for (const m of MARKERS) {
    if (!m.pattern.test(p.html)) continue;
    if (m.conclusive) return { kind: m.kind, reason: `${m.what} (status ${p.status})` };
    thin ??= visibleTextLength(p.html) < THIN_TEXT_CHARS;
    if (blocked) return { kind: m.kind, reason: `${m.what} on a ${p.status} response` };
    if (thin) return { kind: m.kind, reason: `${m.what} on a page with almost no other content (status ${p.status})` };
  }
  if ((p.status === 403 || p.status === 429) && HUMAN_CHECK.test(p.html) && /captcha/i.test(p.html)) {
    return { kind: 'unknown', reason: `"verify you are human" CAPTCHA wall on a ${p.status} response` };
  }
  return null;
}
