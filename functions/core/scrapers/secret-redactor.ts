/** What a secret value is replaced with wherever it would leave a run. */
export const REDACTED = '[secret]';

/**
 * Masks the values of the secrets a run filled in everything it hands back: items, step logs,
 * raw log URLs, error messages. A page may echo what was typed (a GET form puts it in the URL, a
 * profile page shows it), so the value is masked as typed and in its URL-encoded forms.
 */
export class SecretRedactor {
  private readonly forms = new Set<string>();

  /** Register a value that must never leave the run. */
  add(value: string): void {
    if (!value) return;
    for (const f of [value, encodeURIComponent(value), encodeURIComponent(value).replace(/%20/g, '+')]) this.forms.add(f);
  }

  /** Whether any secret was registered (nothing to mask otherwise). */
  get active(): boolean {
    return this.forms.size > 0;
  }

  /** The text with every registered value replaced by {@link REDACTED}; longest forms first. */
  text(s: string): string {
    if (!this.active || !s) return s;
    let out = s;
    for (const f of [...this.forms].sort((a, b) => b.length - a.length)) out = out.split(f).join(REDACTED);
    return out;
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
