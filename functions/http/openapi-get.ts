import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { openApiDocument } from './openapi.js';

export const handler = api(contracts['openapi.get'], async (req) => ({ body: openApiDocument(req.origin) }));
