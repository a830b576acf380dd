import { api } from './pipeline/api.js';
import { contracts } from './contracts/runs.js';
import { listScrapers } from '../core/runs/scraper-catalog.js';

export const handler = api(contracts['scrapers.list'], async (req) => ({
  body: { data: await listScrapers(req.deps.table, req.tenant.tenant_id), next_cursor: null },
}));
