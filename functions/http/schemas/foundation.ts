import * as z from 'zod';
import { pageQuery } from './common.js';

export const serviceInfoSchema = z.object({
  service: z.string(),
  what: z.string(),
  env: z.string(),
  version: z.string().regex(/^\d+\.\d+\.\d+$/),
  docs: z.string().nullable(),
  openapi: z.string().nullable(),
  auth: z.string(),
  surfaces: z.object({ product_api: z.string(), console_api: z.string(), console_ui: z.string(), mcp: z.string() }),
  quickstart: z.string(),
  rules: z.string(),
});

export const auditListQuery = pageQuery.extend({
  action: z.string().max(100).optional(),
  outcome: z.enum(['allowed', 'denied', 'error']).optional(),
});
