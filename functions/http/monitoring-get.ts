import { api } from './pipeline/api.js';
import { contracts } from './contracts/overview.js';
import { monitoring } from '../core/console/monitoring.js';
import { platformWarnings } from '../core/sources/source-status.js';

export const handler = api(contracts['monitoring.get'], async (req) => ({
  body: { ...(await monitoring(req.deps, req.tenant, req.now, req.query.range)), platform_warnings: platformWarnings(req.deps.config.graphApiVersion, req.now) },
}));
