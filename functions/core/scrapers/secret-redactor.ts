/** Masks secrets in JSON-like data (a {@link SecretRedactor}'s `deep`); the run's writers apply it. */
export type Mask = <T>(v: T) => T;

/** What a secret value is replaced with wherever it would leave a run. */
export const REDACTED = '[secret]';

/** Values shorter than this (bytes) are not masked as base64 (see {@link secretSpellings}). */
const MIN_BASE64_BYTES = 6;

const hex = (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;

/**
 * Every spelling a filled value can take on its way back to us (issue 19 finding 2): as typed;
 * percent-encoded by `encodeURIComponent` and by `encodeURI` (paths); form-encoded as a browser
 * submits a GET form (application/x-www-form-urlencoded: `+` for spaces, `!'()~` encoded as
 * `%21 %27 %28 %29 %7E`), also with `%20` for spaces; and base64 / base64url (padded or not) of
 * its UTF-8 bytes (values of 6 bytes or more). Percent-escapes match in either case of hex (see
 * {@link SecretRedactor.text}).
 */
export function secretSpellings(value: string): string[] {
  const component = encodeURIComponent(value);
  const form = component.replace(/[!'()~]/g, hex);
  const b64 = Buffer.from(value, 'utf8').toString('base64');
  const b64url = Buffer.from(value, 'utf8').toString('base64url');
  const texts = [value, component, component.replace(/%20/g, '+'), form, form.replace(/%20/g, '+'), encodeURI(value)];
  // The base64 of a very short value is a few common letters: masking them everywhere would
  // mangle results and protect nothing a guess would not find.
  return Buffer.byteLength(value) < MIN_BASE64_BYTES ? texts : [...texts, b64, b64.replace(/=+$/, ''), b64url];
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A literal pattern for `form`, except that a `%XY` escape matches `%xy` too. */
const pattern = (form: string) =>
  form
    .split(/(%[0-9A-Fa-f]{2})/)
    .map((part, i) => (i % 2 ? `%[${part[1]!.toUpperCase()}${part[1]!.toLowerCase()}][${part[2]!.toUpperCase()}${part[2]!.toLowerCase()}]` : escapeRe(part)))
    .join('');

/**
 * Masks the values of the secrets a run filled in everything it hands back: items, step logs,
 * raw log URLs, the run's error, webhooks and exports (they are built from those). A page may
 * echo what was typed (a GET form puts it in the URL, a profile page shows it), so the value is
 * masked in every spelling of {@link secretSpellings}.
 *
 * Limits: a value embedded inside a larger base64 text (e.g. `user:password` as Basic auth) at
 * another alignment, or transformed otherwise (hashed, HTML-escaped, split), is not recognised.
 */
export class SecretRedactor {
  private readonly forms = new Set<string>();
  private matcher: RegExp | null = null;

  /** Register a value that must never leave the run. */
  add(value: string): void {
    if (!value) return;
    const before = this.forms.size;
    for (const f of secretSpellings(value)) if (f) this.forms.add(f);
    if (this.forms.size !== before) this.matcher = null;
  }

  /** Whether any secret was registered (nothing to mask otherwise). */
  get active(): boolean {
    return this.forms.size > 0;
  }

  /** The text with every registered spelling replaced by {@link REDACTED}; longest spellings first. */
  text(s: string): string {
    if (!this.active || !s) return s;
    this.matcher ??= new RegExp([...this.forms].sort((a, b) => b.length - a.length).map(pattern).join('|'), 'g');
    return s.replace(this.matcher, REDACTED);
  }

  /** A deep copy of JSON-like data with every string masked. */
  deep<T>(v: T): T {
    if (!this.active) return v;
    if (typeof v === 'string') return this.text(v) as T;
    if (Array.isArray(v)) return v.map((x) => this.deep(x)) as T;
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.text(k), this.deep(x)])) as T;
    return v;
  }
}
