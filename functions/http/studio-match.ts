import { api } from './pipeline/api.js';
import { contracts } from './contracts/studio.js';
import { matchSelectorBudgeted } from '../core/studio/count-selector.js';

export const handler = api(contracts['studio.match'], async (req) => ({ body: await matchSelectorBudgeted(req.body.html, req.body.selector, req.tenant.tenant_id) }));
