import { api } from './pipeline/api.js';
import { contracts } from './contracts/scrape.js';
import { apiGuard } from './egress.js';
import { scrapeSync } from '../core/runs/sync-scrape.js';

export const handler = api(contracts['scrape.create'], async (req) => ({
  body: await scrapeSync(req.deps, apiGuard(req.deps.config), req.tenant, req.body, req.now, undefined, req.principal.scopes),
}));
