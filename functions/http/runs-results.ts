import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { getRun } from '../core/runs/run-reads.js';
import { exportRunItems, readRunItems } from '../core/runs/run-items.js';

export const handler = api(contracts['runs.results'], async (req) => {
  req.setResource(req.params.id);
  const run = await getRun(req.deps, req.tenant.tenant_id, req.params.id);
  const { format, limit, cursor } = req.query;
  if (format === 'json') return { body: await readRunItems(req.deps, run, limit, cursor) };
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
  return { raw: await exportRunItems(req.deps, run, format), headers: { 'content-type': type, 'content-disposition': `attachment; filename="${run.id}.${format}"` } };
});
