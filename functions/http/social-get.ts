import { api } from './pipeline/api.js';
import { social } from '../core/console/overview.js';

export const handler = api('social.get', {}, async (req) => ({ body: await social(req.deps, req.tenant, req.now) }));
