import { api } from './pipeline/api.js';
import { studio } from '../core/console/overview.js';

export const handler = api('studio.get', {}, async (req) => ({ body: await studio(req.deps, req.tenant) }));
