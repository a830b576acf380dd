import { api } from './pipeline/api.js';
import { openApiDocument } from './openapi.js';
import { renderDocsPage } from './docs-page.js';

export const handler = api('docs.get', {}, async (req) => ({
  raw: renderDocsPage(openApiDocument(req.origin)),
  headers: { 'content-type': 'text/html; charset=utf-8' },
}));
