import * as z from 'zod';
import { api } from './pipeline/api.js';
import { AppError } from '../core/errors.js';

/** The catch-all route: a JSON 404 with a request id, like every other error. */
export const handler = api('fallback', { body: z.unknown(), query: z.unknown() }, async (req) => {
  throw new AppError(404, 'not_found', `No route for ${req.route.method === 'ANY' ? '' : req.route.method + ' '}this path; see ${req.origin}/docs`);
});
