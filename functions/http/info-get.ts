import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { serviceInfo } from '../core/service-info.js';

export const handler = api(contracts['info.get'], async (req) => ({ body: serviceInfo(req.origin, req.deps.config.env) }));
