import { api, lazyContract, loadOnce } from './pipeline/api.js';
import { streamingApi } from './pipeline/streaming.js';

/** What the route runs, imported by its first call rather than at init (cold start; see loadOnce). */
const core = loadOnce(() => Promise.all([import('../core/runs/run-reads.js'), import('../core/runs/run-items.js'), import('../core/runs/run-export.js')]));

/** Streamed (routes.ts `stream: true`): exports are written page by page as they are read. */
export const handler = streamingApi(
  api(lazyContract('runs.results', () => import('./contracts/runs.js').then((m) => m.contracts['runs.results'])), async (req) => {
    const [{ getRun }, { readRunItems }, { exportRunItems }] = await core();
    req.setResource(req.params.id);
    const run = await getRun(req.deps, req.tenant.tenant_id, req.params.id);
    const { format, limit, cursor, columns } = req.query;
    if (format === 'json') return { body: await readRunItems(req.deps, run, limit, cursor) };
    const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson';
    return { stream: exportRunItems(req.deps, run, format, columns?.split(',').map((c) => c.trim()).filter(Boolean)), headers: { 'content-type': type, 'content-disposition': `attachment; filename="${run.id}.${format}"` } };
  }),
);
