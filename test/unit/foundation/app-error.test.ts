import { describe, expect, it } from 'vitest';
import { AppError, rateLimited } from '../../../functions/core/errors.js';

// An answer to the caller carries no stack (capturing one was 5% of a 429's CPU, issue 31); a
// server error keeps it for the log, and the global stack limit is left as it was.
describe('AppError stacks', () => {
  it('captures none for a 4xx and a whole one for a 5xx', () => {
    const before = Error.stackTraceLimit;
    const denied = new AppError(429, 'rate_limited', 'Too many requests');
    expect(denied.stack).toBe('AppError: Too many requests');
    expect(denied.message).toBe('Too many requests');
    expect(denied).toBeInstanceOf(Error);
    const broken = new AppError(500, 'internal', 'Something broke');
    expect(broken.stack).toMatch(/\n\s+at /);
    expect(Error.stackTraceLimit).toBe(before);
    expect(rateLimited(3).stack).toBe('AppError: Rate limit exceeded; retry after 3 s');
  });
});
