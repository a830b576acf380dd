import { api } from './pipeline/api.js';
import { openApiDocument } from './openapi.js';

export const handler = api('openapi.get', {}, async (req) => ({ body: openApiDocument(req.origin) }));
