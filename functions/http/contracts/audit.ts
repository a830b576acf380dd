import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { auditRecordSchema } from '../../core/audit/audit-record.js';

/** Contracts of audit.list. */

export const auditListQuery = pageQuery.extend({
  action: z.string().max(100).optional(),
  outcome: z.enum(['allowed', 'denied', 'error']).optional(),
});

export const contracts = defineContracts({
  'audit.list': {
    summary: "The tenant's audit records, newest first",
    query: auditListQuery,
    success: { 200: { description: 'Audit records', schema: listOf(auditRecordSchema) } },
  },

});
