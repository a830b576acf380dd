import { api } from './pipeline/api.js';
import { contracts } from './contracts/studio.js';
import { matchSelector } from '../core/studio/preview-request.js';

export const handler = api(contracts['studio.match'], async (req) => ({ body: matchSelector(req.body.html, req.body.selector) }));
