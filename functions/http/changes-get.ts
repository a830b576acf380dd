import { api } from './pipeline/api.js';
import { contracts } from './contracts/changes.js';
import { getChange } from '../core/changes/change-history.js';

export const handler = api(contracts['changes.get'], async (req) => ({ body: await getChange(req.deps, req.tenant.tenant_id, req.params.change_id) }));
