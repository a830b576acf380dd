import { api } from './pipeline/api.js';
import { contracts } from './contracts/overview.js';
import { datasets } from '../core/console/datasets.js';

export const handler = api(contracts['datasets.list'], async (req) => ({ body: await datasets(req.deps, req.tenant, req.query) }));
