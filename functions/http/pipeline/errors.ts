import type { z } from 'zod';
import { AppError, type ErrorDetail } from '../../core/errors.js';
import { zodIssueDetails } from '../../core/zod-details.js';
import { log } from '../../core/log.js';
import type { Result } from './types.js';

/** The one place errors become `{code, message, request_id, details?}`. Unknown errors: generic 500 + a log line. */
export function toErrorResult(err: unknown, requestId: string): Result {
  let e: AppError;
  if (err instanceof AppError) e = err;
  else {
    log.error('unhandled error', { request_id: requestId, err });
    e = new AppError(500, 'internal_error', `An unexpected error occurred; quote request id ${requestId} when reporting it`);
  }
  return {
    statusCode: e.status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...(e.headers ?? {}) },
    body: JSON.stringify({ code: e.code, message: e.message, request_id: requestId, ...(e.details ? { details: e.details } : {}) }),
  };
}

export const zodDetails = (error: z.ZodError, where: string): ErrorDetail[] => zodIssueDetails(error, where);
