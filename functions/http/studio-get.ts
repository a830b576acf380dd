import { api } from './pipeline/api.js';
import { contracts } from './contracts/overview.js';
import { studio } from '../core/console/studio.js';

export const handler = api(contracts['studio.get'], async (req) => ({ body: await studio(req.deps, req.tenant) }));
