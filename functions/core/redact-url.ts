/**
 * Credentials in URLs never reach an error message or a log line (issue 19 finding 8). Source
 * connectors put tokens in query strings (Graph's `access_token=`, YouTube's `key=`), signed
 * URLs carry `X-Amz-Signature`, and a URL may carry `user:password@`; errors that quote a URL
 * (timeouts, redirects, oversized answers, unreachable platforms) would otherwise hand them to
 * whoever reads the error or the log. One function, used by the logger (core/log.ts) and by the
 * error classes themselves (AppError, NonRetryableError, SourceError, the egress errors).
 */

/** Query parameter names that carry a credential (matched on the lowercased name). */
const CREDENTIAL_NAME = /token|secret|passw|pwd|signature|credential|api[-_.]?key|^oauth|(^|[-_.])(key|sig|auth|authorization|code_verifier)$/;

/** `name=value` in a query string (or a form body): the name up to `=`, the value up to `&`, `#` or a delimiter. */
const PARAM = /(^|[?&;\s])([^=&#\s"'<>?;]{1,100})=([^&#\s"'<>;]*)/g;
/** `scheme://userinfo@host`: everything between `//` and the `@` before the host. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/?#@\s"'<>]+)@/gi;

export const REDACTED = '[redacted]';

/** Is a query parameter of this name a credential? */
export function isCredentialParam(name: string): boolean {
  let n = name;
  try {
    n = decodeURIComponent(name);
  } catch {
    /* keep it as written */
  }
  return CREDENTIAL_NAME.test(n.toLowerCase());
}

/**
 * `text` with every URL credential masked: userinfo (`https://[redacted]@host`) and the values of
 * query parameters named like a credential (`access_token=[redacted]`). Works on any text, so
 * URLs inside a sentence, relative URLs and form bodies are covered too.
 */
export function redactUrlCredentials(text: string): string {
  if (!text.includes('=') && !text.includes('@')) return text;
  return text
    .replace(USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`)
    .replace(PARAM, (m, sep: string, name: string, value: string) => (value && isCredentialParam(name) ? `${sep}${name}=${REDACTED}` : m));
}
