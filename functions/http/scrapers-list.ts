import { api } from './pipeline/api.js';
import { listScrapers } from '../core/runs/scraper-catalog.js';

export const handler = api('scrapers.list', {}, async (req) => ({
  body: { data: await listScrapers(req.deps.table, req.tenant.tenant_id), next_cursor: null },
}));
