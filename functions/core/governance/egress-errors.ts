import { NonRetryableError } from '../errors.js';
import { redactUrlCredentials } from '../redact-url.js';

/**
 * Failures of a guarded fetch that are not policy refusals (those are `target_forbidden`
 * AppErrors). Oversized bodies and redirect loops will not get better on retry; timeouts might.
 */
export class ResponseTooLargeError extends NonRetryableError {
  readonly url: string;
  constructor(url: string, readonly maxBytes: number) {
    super(`Response from ${url} exceeds the ${maxBytes}-byte limit`, 'response_too_large');
    this.name = 'ResponseTooLargeError';
    this.url = redactUrlCredentials(url);
  }
}

/** More redirects than the caller allowed (default 10). */
export class TooManyRedirectsError extends NonRetryableError {
  readonly url: string;
  constructor(url: string, readonly maxRedirects: number) {
    super(`More than ${maxRedirects} redirects starting at ${url}`, 'too_many_redirects');
    this.name = 'TooManyRedirectsError';
    this.url = redactUrlCredentials(url);
  }
}

/** The whole exchange (all hops and the body) took longer than `timeoutMs`. Retryable. */
export class EgressTimeoutError extends Error {
  readonly code = 'timeout';
  readonly url: string;
  constructor(url: string, readonly timeoutMs: number) {
    // The URL may carry a token (connectors): the message and the property are redacted.
    super(redactUrlCredentials(`Request to ${url} timed out after ${timeoutMs} ms`));
    this.url = redactUrlCredentials(url);
    this.name = 'EgressTimeoutError';
  }
}
