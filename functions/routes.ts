/**
 * THE route table: plain data, imports no handler code. lib/ (CDK) creates one Lambda + one
 * HTTP API route per row; functions/local/ serves the same rows with Hono. Each handler file
 * exports `handler` (an API Gateway v2 proxy handler).
 */
export { SCOPES, type Scope } from './scopes.js';
import type { Scope } from './scopes.js';

/**
 * What a function may touch; CDK turns each into a least-privilege grant (lib/runtime-wiring.ts).
 * `table:pipeline` is the request pipeline's own writes (audit record, rate-limit and usage
 * counters) that every authenticated route makes, read-only ones included; `table:write` covers it.
 * Object grants are per operation: reading, writing and deleting are separate rights.
 */
export type Grant =
  | 'table:read' | 'table:write' | 'table:pipeline'
  | 'results:read' | 'results:write' | 'results:delete' | 'raw:read' | 'raw:write'
  | 'queue:runs' | 'queue:queries' | 'queue:deliveries' | 'queue:jobs'
  | 'scheduler' | 'kms' | 'bedrock'
  /** Invoke the json format's Bedrock model (`-c extractionModelId`), and only that one. */
  | 'model';

export interface Route {
  /** Stable id, also the audit action: 'runs.create'. */
  id: string;
  /** 'ANY' only for the catch-all row, which must stay last. */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'ANY';
  /** API Gateway path syntax: '/v1/runs/{id}'; '{proxy+}' for a greedy tail. */
  path: string;
  /** Handler module, relative to the repo root. */
  handler: string;
  /** Required scope; 'authenticated' for any valid key; null for public routes (no key). */
  scope: Scope | 'authenticated' | null;
  surface: 'api' | 'console' | 'mcp';
  grants: Grant[];
  memoryMb?: number;
  timeoutSeconds?: number;
  /** A creating POST: Idempotency-Key applies. */
  creates?: boolean;
  /**
   * The response is streamed (exports): the handler is a streaming handler (pipeline/streaming.ts).
   * On AWS the route is served by the REST API with response streaming (HTTP APIs cannot stream)
   * and may run past API Gateway's 29 s; locally it is sent with chunked transfer encoding.
   */
  stream?: boolean;
  /**
   * The handler checks CSS selectors or URL patterns (cheerio's selector engine, RE2), which it
   * loads on first use. On AWS those libraries are installed beside its bundle instead of inlined:
   * inlined, their ~360 KiB of code is parsed at every cold start even when no request needs them.
   * test/cdk/bundles.test.ts fails when a bundle inlines them, so a new route needing them gets this.
   */
  validators?: boolean;
}

const R = (r: Route) => r;
/** Routes that change records. */
const TR: Grant[] = ['table:read', 'table:write'];
/** Read-only routes: table reads plus the pipeline's own writes, no deletes or batch writes. */
const RO: Grant[] = ['table:read', 'table:pipeline'];

export const routes: Route[] = [
  R({ id: 'info.get', method: 'GET', path: '/v1', handler: 'functions/http/info-get.ts', scope: null, surface: 'api', grants: [] }),
  R({ id: 'openapi.get', method: 'GET', path: '/v1/openapi.json', handler: 'functions/http/openapi-get.ts', scope: null, surface: 'api', grants: [] }),
  R({ id: 'docs.get', method: 'GET', path: '/docs', handler: 'functions/http/docs-get.ts', scope: null, surface: 'api', grants: [] }),
  R({ id: 'tenant.get', method: 'GET', path: '/v1/tenant', handler: 'functions/http/tenant-get.ts', scope: 'authenticated', surface: 'api', grants: RO }),
  R({ id: 'session.login', method: 'POST', path: '/dashboard/api/session', handler: 'functions/http/session-login.ts', scope: null, surface: 'console', grants: TR }),
  R({ id: 'session.me', method: 'GET', path: '/dashboard/api/session', handler: 'functions/http/session-me.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'session.logout', method: 'DELETE', path: '/dashboard/api/session', handler: 'functions/http/session-logout.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'keys.list', method: 'GET', path: '/dashboard/api/keys', handler: 'functions/http/keys-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'keys.create', method: 'POST', path: '/dashboard/api/keys', handler: 'functions/http/keys-create.ts', scope: 'admin', surface: 'console', grants: TR, creates: true }),
  R({ id: 'keys.rotate', method: 'POST', path: '/dashboard/api/keys/{key_id}/rotate', handler: 'functions/http/keys-rotate.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'keys.revoke', method: 'DELETE', path: '/dashboard/api/keys/{key_id}', handler: 'functions/http/keys-revoke.ts', scope: 'admin', surface: 'console', grants: TR }),
  // Runs surface (SPEC.md 4.3) and the scrape, runbooks and captcha groups
  R({ id: 'scrapers.list', method: 'GET', path: '/v1/scrapers', handler: 'functions/http/scrapers-list.ts', scope: 'scrapers:read', surface: 'api', grants: RO, validators: true }),
  R({ id: 'runs.create', method: 'POST', path: '/v1/runs', handler: 'functions/http/runs-create.ts', scope: 'runs:write', surface: 'api', grants: [...TR, 'queue:runs'], creates: true, validators: true }),
  R({ id: 'runs.list', method: 'GET', path: '/v1/runs', handler: 'functions/http/runs-list.ts', scope: 'runs:read', surface: 'api', grants: RO }),
  R({ id: 'runs.get', method: 'GET', path: '/v1/runs/{id}', handler: 'functions/http/runs-get.ts', scope: 'runs:read', surface: 'api', grants: RO, timeoutSeconds: 29 }),
  R({ id: 'runs.cancel', method: 'POST', path: '/v1/runs/{id}/cancel', handler: 'functions/http/runs-cancel.ts', scope: 'runs:write', surface: 'api', grants: [...TR, 'queue:deliveries'] }),
  R({ id: 'runs.results', method: 'GET', path: '/v1/runs/{id}/results', handler: 'functions/http/runs-results.ts', scope: 'runs:read', surface: 'api', grants: [...RO, 'results:read'], stream: true, timeoutSeconds: 900 }),
  R({ id: 'changes.list', method: 'GET', path: '/v1/changes', handler: 'functions/http/changes-list.ts', scope: 'runs:read', surface: 'api', grants: RO }),
  R({ id: 'changes.get', method: 'GET', path: '/v1/changes/{change_id}', handler: 'functions/http/changes-get.ts', scope: 'runs:read', surface: 'api', grants: [...RO, 'results:read'] }),
  R({ id: 'changes.delete', method: 'DELETE', path: '/v1/changes', handler: 'functions/http/changes-delete.ts', scope: 'runs:write', surface: 'api', grants: [...TR, 'results:delete'] }),
  R({ id: 'runs.log', method: 'GET', path: '/v1/runs/{id}/log', handler: 'functions/http/runs-log.ts', scope: 'runs:read', surface: 'api', grants: [...RO, 'raw:read'] }),
  R({ id: 'scrape.create', method: 'POST', path: '/v1/scrape', handler: 'functions/http/scrape-create.ts', scope: 'scrape:write', surface: 'api', grants: [...TR, 'queue:runs', 'results:read', 'results:delete', 'raw:read'], timeoutSeconds: 29, validators: true }),
  R({ id: 'runbooks.list', method: 'GET', path: '/v1/runbooks', handler: 'functions/http/runbooks-list.ts', scope: 'runbooks:read', surface: 'api', grants: RO, validators: true }),
  R({ id: 'runbooks.create', method: 'POST', path: '/v1/runbooks', handler: 'functions/http/runbooks-create.ts', scope: 'runbooks:write', surface: 'api', grants: TR, creates: true, validators: true }),
  R({ id: 'runbooks.get', method: 'GET', path: '/v1/runbooks/{id}', handler: 'functions/http/runbooks-get.ts', scope: 'runbooks:read', surface: 'api', grants: RO, validators: true }),
  R({ id: 'runbooks.put', method: 'PUT', path: '/v1/runbooks/{id}', handler: 'functions/http/runbooks-put.ts', scope: 'runbooks:write', surface: 'api', grants: TR, validators: true }),
  R({ id: 'runbooks.delete', method: 'DELETE', path: '/v1/runbooks/{id}', handler: 'functions/http/runbooks-delete.ts', scope: 'runbooks:write', surface: 'api', grants: TR, validators: true }),
  R({ id: 'runbooks.test', method: 'POST', path: '/v1/runbooks/{id}/test', handler: 'functions/http/runbooks-test.ts', scope: 'runbooks:write', surface: 'api', grants: [...TR, 'queue:runs', 'results:read', 'results:delete'], timeoutSeconds: 29, validators: true }),
  R({ id: 'captcha.encounters', method: 'GET', path: '/v1/captcha/encounters', handler: 'functions/http/captcha-encounters.ts', scope: 'captcha:read', surface: 'api', grants: RO }),
  R({ id: 'captcha.policy.get', method: 'GET', path: '/v1/captcha/policy', handler: 'functions/http/captcha-policy-get.ts', scope: 'captcha:read', surface: 'api', grants: RO }),
  R({ id: 'captcha.policy.put', method: 'PUT', path: '/v1/captcha/policy', handler: 'functions/http/captcha-policy-put.ts', scope: 'captcha:write', surface: 'api', grants: TR }),
  R({ id: 'secrets.list', method: 'GET', path: '/dashboard/api/secrets', handler: 'functions/http/secrets-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'secrets.put', method: 'PUT', path: '/dashboard/api/secrets/{name}', handler: 'functions/http/secrets-put.ts', scope: 'admin', surface: 'console', grants: [...TR, 'kms'] }),
  R({ id: 'secrets.delete', method: 'DELETE', path: '/dashboard/api/secrets/{name}', handler: 'functions/http/secrets-delete.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'settings.target-policy.get', method: 'GET', path: '/dashboard/api/settings/target-policy', handler: 'functions/http/target-policy-get.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'settings.target-policy.put', method: 'PUT', path: '/dashboard/api/settings/target-policy', handler: 'functions/http/target-policy-put.ts', scope: 'admin', surface: 'console', grants: TR }),
  // Queries surface
  R({ id: 'queries.create', method: 'POST', path: '/v1/queries', handler: 'functions/http/queries-create.ts', scope: 'queries:write', surface: 'api', grants: [...TR, 'queue:queries'], creates: true }),
  R({ id: 'queries.list', method: 'GET', path: '/v1/queries', handler: 'functions/http/queries-list.ts', scope: 'queries:read', surface: 'api', grants: RO }),
  R({ id: 'queries.get', method: 'GET', path: '/v1/queries/{query_id}', handler: 'functions/http/queries-get.ts', scope: 'queries:read', surface: 'api', grants: [...RO, 'results:read'] }),
  R({ id: 'storage.list', method: 'GET', path: '/v1/storage', handler: 'functions/http/storage-list.ts', scope: 'storage:read', surface: 'api', grants: RO }),
  R({ id: 'storage.get', method: 'GET', path: '/v1/storage/{key}', handler: 'functions/http/storage-get.ts', scope: 'storage:read', surface: 'api', grants: [...RO, 'results:read'] }),
  R({ id: 'storage.delete', method: 'DELETE', path: '/v1/storage/{key}', handler: 'functions/http/storage-delete.ts', scope: 'storage:write', surface: 'api', grants: [...TR, 'results:delete'] }),
  R({ id: 'sources.list', method: 'GET', path: '/dashboard/api/sources', handler: 'functions/http/sources-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'sources.put', method: 'PUT', path: '/dashboard/api/sources/{source}', handler: 'functions/http/sources-put.ts', scope: 'admin', surface: 'console', grants: [...TR, 'kms'] }),
  R({ id: 'sources.delete', method: 'DELETE', path: '/dashboard/api/sources/{source}', handler: 'functions/http/sources-delete.ts', scope: 'admin', surface: 'console', grants: TR }),
  // Jobs, webhooks, bucket sync (SPEC.md 2.3, 2.5, 2.6, 4.5, 4.7, 6)
  R({ id: 'jobs.list', method: 'GET', path: '/v1/jobs', handler: 'functions/http/jobs-list.ts', scope: 'jobs:read', surface: 'api', grants: RO }),
  R({ id: 'jobs.create', method: 'POST', path: '/v1/jobs', handler: 'functions/http/jobs-create.ts', scope: 'jobs:write', surface: 'api', grants: [...TR, 'scheduler'], creates: true , validators: true }),
  R({ id: 'jobs.get', method: 'GET', path: '/v1/jobs/{job_id}', handler: 'functions/http/jobs-get.ts', scope: 'jobs:read', surface: 'api', grants: RO }),
  R({ id: 'jobs.update', method: 'PATCH', path: '/v1/jobs/{job_id}', handler: 'functions/http/jobs-update.ts', scope: 'jobs:write', surface: 'api', grants: [...TR, 'scheduler'] , validators: true }),
  R({ id: 'jobs.delete', method: 'DELETE', path: '/v1/jobs/{job_id}', handler: 'functions/http/jobs-delete.ts', scope: 'jobs:write', surface: 'api', grants: [...TR, 'scheduler'] }),
  R({ id: 'jobs.run', method: 'POST', path: '/v1/jobs/{job_id}/run', handler: 'functions/http/jobs-run.ts', scope: 'jobs:write', surface: 'api', grants: [...TR, 'queue:queries', 'queue:runs'], creates: true , validators: true }),
  R({ id: 'jobs.runs', method: 'GET', path: '/v1/jobs/{job_id}/runs', handler: 'functions/http/jobs-runs.ts', scope: 'jobs:read', surface: 'api', grants: RO }),
  R({ id: 'webhooks.list', method: 'GET', path: '/v1/webhooks', handler: 'functions/http/webhooks-list.ts', scope: 'webhooks:read', surface: 'api', grants: RO }),
  R({ id: 'webhooks.create', method: 'POST', path: '/v1/webhooks', handler: 'functions/http/webhooks-create.ts', scope: 'webhooks:write', surface: 'api', grants: [...TR, 'kms'], creates: true }),
  R({ id: 'webhooks.update', method: 'PATCH', path: '/v1/webhooks/{webhook_id}', handler: 'functions/http/webhooks-update.ts', scope: 'webhooks:write', surface: 'api', grants: TR }),
  R({ id: 'jobs.deliveries', method: 'GET', path: '/v1/jobs/{job_id}/deliveries', handler: 'functions/http/jobs-deliveries.ts', scope: 'jobs:read', surface: 'api', grants: RO }),
  R({ id: 'runs.deliveries', method: 'GET', path: '/v1/runs/{id}/deliveries', handler: 'functions/http/runs-deliveries.ts', scope: 'runs:read', surface: 'api', grants: RO }),
  R({ id: 'webhooks.delete', method: 'DELETE', path: '/v1/webhooks/{webhook_id}', handler: 'functions/http/webhooks-delete.ts', scope: 'webhooks:write', surface: 'api', grants: TR }),
  R({ id: 'webhooks.deliveries', method: 'GET', path: '/v1/webhooks/{webhook_id}/deliveries', handler: 'functions/http/webhooks-deliveries.ts', scope: 'webhooks:read', surface: 'api', grants: RO }),
  R({ id: 'webhooks.retry', method: 'POST', path: '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry', handler: 'functions/http/webhooks-retry.ts', scope: 'webhooks:write', surface: 'api', grants: [...TR, 'queue:deliveries'] }),
  R({ id: 'settings.webhooks.get', method: 'GET', path: '/dashboard/api/settings/webhooks', handler: 'functions/http/settings-webhooks-get.ts', scope: 'admin', surface: 'console', grants: [...RO, 'kms'] }),
  R({ id: 'settings.storage.get', method: 'GET', path: '/dashboard/api/settings/storage', handler: 'functions/http/settings-storage-get.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'settings.storage.put', method: 'PUT', path: '/dashboard/api/settings/storage', handler: 'functions/http/settings-storage-put.ts', scope: 'admin', surface: 'console', grants: [...TR, 'kms'] }),
  R({ id: 'settings.storage.test', method: 'POST', path: '/dashboard/api/settings/storage/test', handler: 'functions/http/settings-storage-test.ts', scope: 'admin', surface: 'console', grants: [...TR, 'kms'] }),
  // Search (API.md "Search"): governed web search, and the tenant's provider credentials
  R({ id: 'search.run', method: 'POST', path: '/v1/search', handler: 'functions/http/search-run.ts', scope: 'search:run', surface: 'api', grants: [...TR, 'queue:runs', 'results:read', 'results:delete'], timeoutSeconds: 29, validators: true }),
  R({ id: 'search-providers.list', method: 'GET', path: '/dashboard/api/search-providers', handler: 'functions/http/search-providers-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'search-providers.put', method: 'PUT', path: '/dashboard/api/search-providers/{provider}', handler: 'functions/http/search-providers-put.ts', scope: 'admin', surface: 'console', grants: [...TR, 'kms'] }),
  R({ id: 'search-providers.delete', method: 'DELETE', path: '/dashboard/api/search-providers/{provider}', handler: 'functions/http/search-providers-delete.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'search-providers.test', method: 'POST', path: '/dashboard/api/search-providers/{provider}/test', handler: 'functions/http/search-providers-test.ts', scope: 'admin', surface: 'console', grants: [...TR, 'kms'], timeoutSeconds: 29 }),
  // Agent endpoint (MCP, Streamable HTTP, stateless)
  R({ id: 'mcp.post', method: 'POST', path: '/mcp', handler: 'functions/http/mcp-post.ts', scope: 'authenticated', surface: 'mcp', grants: [...TR, 'queue:runs', 'queue:queries', 'results:read', 'results:delete', 'raw:read', 'scheduler'], timeoutSeconds: 29, validators: true }),
  // Web console (static files from console/, served same-origin at console_url)
  R({ id: 'console.index', method: 'GET', path: '/', handler: 'functions/http/console-get.ts', scope: null, surface: 'console', grants: [] }),
  R({ id: 'console.asset', method: 'GET', path: '/console/{proxy+}', handler: 'functions/http/console-get.ts', scope: null, surface: 'console', grants: [] }),
  // Console API groups (SPEC.md 1): datasets, monitoring, social, studio
  R({ id: 'datasets.list', method: 'GET', path: '/dashboard/api/datasets', handler: 'functions/http/datasets-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'monitoring.get', method: 'GET', path: '/dashboard/api/monitoring', handler: 'functions/http/monitoring-get.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'social.get', method: 'GET', path: '/dashboard/api/social', handler: 'functions/http/social-get.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'studio.get', method: 'GET', path: '/dashboard/api/studio', handler: 'functions/http/studio-get.ts', scope: 'admin', surface: 'console', grants: RO, validators: true }),
  // Studio's selector picker (issue 29): a page rendered by the runs worker's browser, and a match count on its HTML
  R({ id: 'studio.preview', method: 'POST', path: '/dashboard/api/studio/preview', handler: 'functions/http/studio-preview.ts', scope: 'admin', surface: 'console', grants: [...TR, 'queue:runs', 'results:read', 'results:delete'], timeoutSeconds: 29, validators: true }),
  R({ id: 'studio.match', method: 'POST', path: '/dashboard/api/studio/match', handler: 'functions/http/studio-match.ts', scope: 'admin', surface: 'console', grants: RO, validators: true }),
  R({ id: 'profiles.list', method: 'GET', path: '/dashboard/api/antidetect/profiles', handler: 'functions/http/profiles-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'profiles.create', method: 'POST', path: '/dashboard/api/antidetect/profiles', handler: 'functions/http/profiles-create.ts', scope: 'admin', surface: 'console', grants: TR, creates: true }),
  R({ id: 'profiles.get', method: 'GET', path: '/dashboard/api/antidetect/profiles/{profile_id}', handler: 'functions/http/profiles-get.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'profiles.put', method: 'PUT', path: '/dashboard/api/antidetect/profiles/{profile_id}', handler: 'functions/http/profiles-put.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'profiles.delete', method: 'DELETE', path: '/dashboard/api/antidetect/profiles/{profile_id}', handler: 'functions/http/profiles-delete.ts', scope: 'admin', surface: 'console', grants: TR }),
  // Verified domains (API.md "Verified domains and large crawls")
  R({ id: 'domains.list', method: 'GET', path: '/dashboard/api/domains', handler: 'functions/http/domains-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'domains.create', method: 'POST', path: '/dashboard/api/domains', handler: 'functions/http/domains-create.ts', scope: 'admin', surface: 'console', grants: TR, creates: true }),
  R({ id: 'domains.delete', method: 'DELETE', path: '/dashboard/api/domains/{host}', handler: 'functions/http/domains-delete.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'domains.verify', method: 'POST', path: '/dashboard/api/domains/{host}/verify', handler: 'functions/http/domains-verify.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'domains.limits', method: 'PUT', path: '/dashboard/api/domains/{host}/limits', handler: 'functions/http/domains-limits.ts', scope: 'admin', surface: 'console', grants: TR }),
  R({ id: 'audit.list', method: 'GET', path: '/dashboard/api/audit', handler: 'functions/http/audit-list.ts', scope: 'admin', surface: 'console', grants: RO }),
  R({ id: 'console.view', method: 'POST', path: '/dashboard/api/views', handler: 'functions/http/console-view.ts', scope: 'authenticated', surface: 'console', grants: TR }),
  // Catch-all (last): unknown paths get the API's JSON 404 with a request id, locally and on AWS.
  R({ id: 'fallback', method: 'ANY', path: '/{proxy+}', handler: 'functions/http/not-found.ts', scope: null, surface: 'api', grants: [], memoryMb: 256 }),
];

export const routeById = (id: string): Route => {
  const r = routes.find((x) => x.id === id);
  if (!r) throw new Error(`No route with id ${id}`);
  return r;
};

/** SQS workers: one queue (with a DLQ) and one Lambda per row. Also plain data. */
export interface WorkerDef {
  id: 'runs' | 'queries' | 'deliveries' | 'jobs';
  handler: string;
  grants: Grant[];
  memoryMb: number;
  timeoutSeconds: number;
  batchSize: number;
  /** Receives before a message goes to the DLQ. */
  maxReceiveCount: number;
  /** The worker launches Chromium (CDK gives it more memory and the @sparticuz layer-free bundle). */
  browser?: boolean;
}

export const workers: WorkerDef[] = [
  { id: 'runs', handler: 'functions/workers/runs-worker.ts', grants: ['table:read', 'table:write', 'results:read', 'results:write', 'raw:read', 'raw:write', 'queue:runs', 'queue:deliveries', 'kms', 'model'], memoryMb: 2048, timeoutSeconds: 900, batchSize: 1, maxReceiveCount: 3, browser: true },
  { id: 'queries', handler: 'functions/workers/queries-worker.ts', grants: ['table:read', 'table:write', 'results:write', 'queue:deliveries', 'kms', 'bedrock'], memoryMb: 1024, timeoutSeconds: 300, batchSize: 1, maxReceiveCount: 3 },
  { id: 'deliveries', handler: 'functions/workers/deliveries-worker.ts', grants: ['table:read', 'table:write', 'results:read', 'queue:deliveries', 'kms'], memoryMb: 512, timeoutSeconds: 60, batchSize: 10, maxReceiveCount: 8 },
  { id: 'jobs', handler: 'functions/workers/jobs-worker.ts', grants: ['table:read', 'table:write', 'queue:queries', 'queue:runs', 'queue:jobs', 'results:delete'], memoryMb: 512, timeoutSeconds: 60, batchSize: 10, maxReceiveCount: 3 },
];
