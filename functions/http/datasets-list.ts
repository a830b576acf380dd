import { api } from './pipeline/api.js';
import { datasets, datasetsQuery } from '../core/console/overview.js';

export const handler = api('datasets.list', { query: datasetsQuery }, async (req) => ({ body: await datasets(req.deps, req.tenant, req.query) }));
