import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { runbookBodySchema, runbookRecordSchema } from '../../core/runbooks/runbooks.js';

/** Contracts of runbooks.list, runbooks.create, runbooks.get, runbooks.put, runbooks.delete. */

export const runbookIdParams = z.strictObject({ id: z.string().regex(/^rbk_[0-9a-z]{26}$/, 'expected a rbk_… id') });

export const contracts = defineContracts({
  'runbooks.list': { summary: 'Runbooks', query: pageQuery, success: { 200: { description: 'Runbooks', schema: listOf(runbookRecordSchema) } } },
  'runbooks.create': {
    summary: 'Create a declarative runbook',
    body: runbookBodySchema,
    requestExample: { name: 'Titles', steps: [{ action: 'goto', url: 'https://example.com/' }, { action: 'extract', fields: { title: { selector: 'h1' } } }] },
    success: { 201: { description: 'The runbook', schema: runbookRecordSchema } },
  },
  'runbooks.get': { summary: 'A runbook', params: runbookIdParams, success: { 200: { description: 'The runbook', schema: runbookRecordSchema } }, errors: { 404: 'No such runbook' } },
  'runbooks.put': { summary: 'Replace a runbook', params: runbookIdParams, body: runbookBodySchema, success: { 200: { description: 'The runbook', schema: runbookRecordSchema } }, errors: { 404: 'No such runbook' } },
  'runbooks.delete': { summary: 'Delete a runbook', params: runbookIdParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such runbook' } },
});
