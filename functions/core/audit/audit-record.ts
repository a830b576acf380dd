import * as z from 'zod';

/** One audit record as stored and as GET /dashboard/api/audit lists it. */
export const auditRecordSchema = z.object({
  id: z.string(),
  ts: z.string(),
  request_id: z.string(),
  tenant_id: z.string(),
  // email: a console user's, recorded at write time (older records have none).
  principal: z.object({ type: z.enum(['key', 'user', 'system']), id: z.string(), email: z.string().optional() }),
  surface: z.enum(['api', 'console', 'mcp', 'scheduler']),
  action: z.string(),
  resource: z.string().nullable(),
  outcome: z.enum(['allowed', 'denied', 'error']),
  status: z.number().int(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  /** Model calls (action `model.extract`): which model, and the tokens the call used. */
  model: z.object({ model: z.string(), input_tokens: z.number().int(), output_tokens: z.number().int() }).optional(),
});
export type AuditRecord = z.infer<typeof auditRecordSchema>;
