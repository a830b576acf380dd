/**
 * The scopes an API key can hold. A module of its own, not part of the route table (routes.ts
 * re-exports it): key validation needs the list on every authenticated call, and importing it from
 * routes.ts made each API function load every route's row on its first call (issue 31, cold init).
 */
export const SCOPES = [
  'scrapers:read', 'runs:read', 'runs:write', 'scrape:write', 'runbooks:read', 'runbooks:write',
  'captcha:read', 'captcha:write', 'queries:read', 'queries:write', 'jobs:read', 'jobs:write',
  'storage:read', 'storage:write', 'webhooks:read', 'webhooks:write', 'admin',
  // POST /v1/search and the MCP tool search (API.md "Search").
  'search:run',
  // Needed, besides the route's own scope, to create, change, test or run a runbook that fills a
  // tenant secret: runbooks:write alone cannot type the tenant's credentials into a page.
  'secrets:use',
] as const;
export type Scope = (typeof SCOPES)[number];
