/**
 * Errors that carry their meaning. One place (the HTTP pipeline) maps them to
 * `{code, message, request_id, details?}`; workers use `retryable` to decide
 * between retry and dead-letter.
 */
import { redactUrlCredentials } from './redact-url.js';

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[] | Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    // An answer to the caller (4xx) needs no stack: capturing one was 5% of the CPU of a call
    // answered 429. A 5xx keeps its stack for the log.
    const stackLimit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    // Messages often quote a URL; its credentials never reach the caller (core/redact-url.ts).
    super(redactUrlCredentials(message));
    Error.stackTraceLimit = stackLimit;
    this.name = 'AppError';
  }
  toJSON() {
    return { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) };
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) =>
  new AppError(400, 'invalid_request', message, details);
export const targetForbidden = (message: string) => new AppError(400, 'target_forbidden', message);
export const targetNotAuthorized = (message: string) => new AppError(400, 'target_not_authorized', message);
export const unauthorized = (message = 'Missing or invalid API key') => new AppError(401, 'unauthorized', message);
export const paymentRequired = (message: string, code = 'payment_required') => new AppError(402, code, message);
export const forbidden = (scope: string) =>
  new AppError(403, 'forbidden', `This API key lacks the scope ${scope}`, [{ path: 'scope', message: scope }]);
export const notFound = (what = 'Resource') => new AppError(404, 'not_found', `${what} not found`);
export const conflict = (message: string) => new AppError(409, 'conflict', message);
export const idempotencyReused = () =>
  new AppError(422, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body');
export const rateLimited = (retryAfter: number) =>
  new AppError(429, 'rate_limited', `Rate limit exceeded; retry after ${retryAfter} s`, undefined, {
    'retry-after': String(retryAfter),
  });

/** A condition on a single-item write did not hold (the domain decides what that means). */
export class ConditionFailedError extends Error {
  constructor(message = 'Condition failed') {
    super(message);
    this.name = 'ConditionFailedError';
  }
}

/** Worker-side classification (crawlee's NonRetryableError): never retry these. */
export class NonRetryableError extends Error {
  constructor(message: string, readonly code = 'failed') {
    super(redactUrlCredentials(message));
    this.name = 'NonRetryableError';
  }
}

export const isRetryable = (err: unknown): boolean =>
  !(err instanceof NonRetryableError) && !(err instanceof AppError && err.status < 500);

/** A record would exceed the store's item limit (DynamoDB: 400 KB). Maps to 413; never retried. */
export class ItemTooLargeError extends AppError {
  constructor(readonly size: number, readonly limit: number) {
    super(413, 'payload_too_large', `The resource is too large to store (${Math.ceil(size / 1024)} KB; the limit is ${Math.floor(limit / 1024)} KB)`);
    this.name = 'ItemTooLargeError';
  }
}
