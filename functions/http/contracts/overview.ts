import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf } from '../schemas/common.js';
import { datasetsQuery } from '../../core/console/datasets.js';
import { monitoringQuery } from '../../core/console/monitoring.js';

/** Contracts of datasets.list, monitoring.get, social.get, studio.get. */

const count = z.record(z.string(), z.number().int());
/** Console overview pages grow with the console: required fields are fixed, more may appear. */
const monitoringSchema = z.looseObject({
  window: z.object({ since: z.string(), until: z.string(), range: z.enum(['1h', '24h', '7d', '30d']).optional() }),
  runs: z.looseObject({ total: z.number().int(), by_status: count }),
  queries: z.looseObject({ total: z.number().int(), by_status: count }),
  challenges: z.looseObject({ total: z.number().int(), by_kind: count }),
  recent_failures: z.array(z.looseObject({ kind: z.enum(['run', 'query']), id: z.string(), status: z.string(), at: z.string().nullable(), error: z.string().nullable() })),
  usage: z.looseObject({ month: z.string() }),
  billing_status: z.string(),
});
const datasetSchema = z.looseObject({ id: z.string(), kind: z.enum(['run', 'file']), source: z.string(), created_at: z.string(), url: z.string() });
const socialSchema = z.looseObject({ sources: z.array(z.looseObject({ source: z.string(), configured: z.boolean(), queries_7d: z.number().int() })) });
const studioSchema = z.looseObject({
  steps: z.array(z.record(z.string(), z.unknown())),
  runbooks: z.array(z.looseObject({ id: z.string(), name: z.string(), published: z.boolean(), steps: z.number().int(), updated_at: z.string() })),
});

export const contracts = defineContracts({
  'datasets.list': {
    summary: 'Collected data: succeeded runs with items (kind=runs) or stored result files (kind=files)',
    query: datasetsQuery,
    success: { 200: { description: 'Data sets', schema: listOf(datasetSchema) } },
  },
  'monitoring.get': { summary: 'Runs, queries and challenges of a window (range: 1h, 24h, 7d or 30d; default 24h); recent failures; usage this month against the plan', query: monitoringQuery, success: { 200: { description: 'Monitoring', schema: monitoringSchema } } },
  'social.get': { summary: "Each social source's connection state and use by queries in the last 7 days", success: { 200: { description: 'Sources', schema: socialSchema } } },
  'studio.get': { summary: 'Runbook editor catalogue: JSON Schema of every step action, and the runbooks', success: { 200: { description: 'Catalogue', schema: studioSchema } } },
});
