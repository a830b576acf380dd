import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { auditRecordSchema } from '../../core/audit/audit-record.js';

/** Contracts of audit.list, console.view. */

export const auditListQuery = pageQuery.extend({
  action: z.string().max(100).optional(),
  outcome: z.enum(['allowed', 'denied', 'error']).optional(),
  /** Who: a key id, a user id, or a console user's email (exact). */
  principal: z.string().min(1).max(320).optional(),
  /** Records at or after / before these times (ISO 8601). */
  since: z.string().datetime({ offset: true }).optional(),
  until: z.string().datetime({ offset: true }).optional(),
  /** `exclude`: leave out reads (GET calls and console page views), so changes stand out. Default `include`. */
  reads: z.enum(['include', 'exclude']).default('include'),
});
export const viewBody = z.strictObject({ path: z.string().min(1).max(300).regex(/^\/[\w\-./:%~?=&]*$/, 'expected a console path such as /runs') });

export const contracts = defineContracts({
  'audit.list': {
    summary: "The tenant's audit records, newest first",
    query: auditListQuery,
    success: { 200: { description: 'Audit records', schema: listOf(auditRecordSchema) } },
  },
  'console.view': {
    summary: 'Record a console page view in the audit log (action console.view, resource: the page)',
    body: viewBody,
    requestExample: { path: '/runs' },
    success: { 204: { description: 'Recorded' } },
  },

});
