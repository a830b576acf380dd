import { api } from './pipeline/api.js';
import { contracts } from './contracts/overview.js';
import { social } from '../core/console/social.js';
import { sourceStatus } from '../core/sources/source-status.js';

export const handler = api(contracts['social.get'], async (req) => ({
  body: { ...(await social(req.deps, req.tenant, req.now)), ...(await sourceStatus(req.deps, req.tenant.tenant_id, req.deps.config.graphApiVersion, req.now)) },
}));
