import { api } from './pipeline/api.js';
import { contracts } from './contracts/domains.js';
import { listDomains } from '../core/domains/verified-domains.js';

export const handler = api(contracts['domains.list'], async (req) => ({ body: { data: await listDomains(req.deps.table, req.tenant.tenant_id), next_cursor: null } }));
