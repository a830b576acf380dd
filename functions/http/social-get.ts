import { api } from './pipeline/api.js';
import { contracts } from './contracts/overview.js';
import { social } from '../core/console/overview.js';

export const handler = api(contracts['social.get'], async (req) => ({ body: await social(req.deps, req.tenant, req.now) }));
