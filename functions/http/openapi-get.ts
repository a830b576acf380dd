import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { prebuiltOpenApiDocument } from './openapi-prebuilt.js';

export const handler = api(contracts['openapi.get'], async (req) => ({ body: await prebuiltOpenApiDocument(req.origin) }));
