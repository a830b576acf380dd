import { api } from './pipeline/api.js';
import { contracts } from './contracts/service.js';
import { renderDocsPage, DOCS_CSP } from './docs-page.js';

export const handler = api(contracts['docs.get'], async () => ({
  raw: renderDocsPage(),
  headers: {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': DOCS_CSP,
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
  },
}));
