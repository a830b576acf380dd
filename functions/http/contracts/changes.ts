import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { changeFiltersShape, dropBaselineQuery, publicChangeSchema } from '../../core/changes/change-history.js';

/** Contracts of changes.list, changes.get, changes.delete (API.md "Scheduled runs and change tracking"). */

export const changeIdParams = z.strictObject({ change_id: z.string().regex(/^chg_[0-9a-z]{26}$/, 'expected a chg_… id') });
export const changesListQuery = pageQuery.extend(changeFiltersShape);
const changeDetailSchema = publicChangeSchema.extend({
  diff: z.string().nullable().describe('Unified diff of the main-content markdown (changed only), at most 100 KB'),
  previous_markdown: z.string().nullable(),
  current_markdown: z.string().nullable(),
});

export const contracts = defineContracts({
  'changes.list': {
    summary: 'Change history (new, changed, removed pages), newest first',
    query: changesListQuery,
    success: { 200: { description: 'Changes', schema: listOf(publicChangeSchema) } },
  },
  'changes.get': {
    summary: 'One change, with its diff and both versions of the markdown',
    params: changeIdParams,
    success: { 200: { description: 'The change', schema: changeDetailSchema } },
    errors: { 404: 'No such change' },
  },
  'changes.delete': {
    summary: 'Drop the baseline of one page under one tag, with its change records and snapshots (the next fetch is new)',
    query: dropBaselineQuery,
    success: {
      200: {
        description: 'What was dropped',
        schema: z.object({
          url: z.string().describe('The normalised URL'),
          tag: z.string(),
          baseline: z.boolean().describe('A baseline was there'),
          changes: z.number().int().describe('Change records deleted'),
          snapshots: z.number().int().describe('Snapshots deleted'),
        }),
      },
    },
    errors: { 404: 'No baseline or history of this URL under this tag' },
  },
});
