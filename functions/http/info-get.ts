import { api } from './pipeline/api.js';
import { serviceInfo } from '../core/service-info.js';

export const handler = api('info.get', {}, async (req) => ({ body: serviceInfo(req.origin, req.deps.config.env) }));
