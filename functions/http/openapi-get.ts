import { api, lazyContract } from './pipeline/api.js';
import { prebuiltOpenApiDocument } from './openapi-prebuilt.js';

export const handler = api(lazyContract('openapi.get', () => import('./contracts/service.js').then((m) => m.contracts['openapi.get'])), async (req) => ({ body: await prebuiltOpenApiDocument(req.origin) }));
