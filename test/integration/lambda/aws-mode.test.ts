import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';

import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundlingOptions, REPO_ROOT } from '../../../lib/gleaner-function.js';
import { memoryStores } from '../foundation/stores.js';
import { createTenant } from '../../../functions/core/tenancy/tenants.js';
import { createApiKey } from '../../../functions/core/tenancy/api-keys.js';
import { ENV, ORIGIN_VERIFY_HEADER } from '../../../functions/config.js';
import { listAudit } from '../../../functions/core/audit/list-audit.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// The Lambda path: handlers bundled exactly as CDK bundles them (ESM, node22 target, the require
// banner, @aws-sdk external) and invoked in a fresh Node process the way Lambda invokes them, in
// aws mode (the AWS composition root), against dynalite and s3rver standing in for DynamoDB and S3.
let stores: EmbeddedStores;
let dir: string;
let key: string;
let tenantId: string;
let table: DynamoTable;
/** What CDK gives CloudFront (origin header) and every API function (GLEANER_ORIGIN_SECRET). */
const ORIGIN_SECRET = 'origin-secret-for-tests-0123456789';
const bundles: Record<string, string> = {};

beforeAll(async () => {
  const s = await memoryStores();
  stores = s.stores;
  table = s.table;
  const t = await createTenant(s.table, 'lambda', new Date());
  tenantId = t.tenant_id;
  key = (await createApiKey(s.table, { tenantId: t.tenant_id, scopes: ['*'] }, new Date())).api_key;
  dir = mkdtempSync(join(REPO_ROOT, '.tmp-lambda-'));
  const opts = bundlingOptions();
  for (const h of ['functions/http/info-get.ts', 'functions/http/tenant-get.ts', 'functions/http/queries-create.ts']) {
    const out = join(dir, `${h.split('/').pop()!.replace('.ts', '')}.mjs`);
    await build({
      entryPoints: [join(REPO_ROOT, h)], outfile: out, bundle: true, platform: 'node', format: 'esm', target: opts.target,
      banner: { js: opts.banner! }, external: opts.externalModules ?? [], minify: true, logLevel: 'silent',
    });
    bundles[h] = out;
  }
}, 120_000);
afterAll(async () => {
  await stores?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Invoke a bundled handler in its own process, as the Lambda runtime would. */
async function invoke(handler: string, event: Record<string, unknown>) {
  const runner = join(dir, 'invoke.mjs');
  writeFileSync(runner, `const { handler } = await import(process.argv[2]);\nconst r = await handler(JSON.parse(process.argv[3]), { getRemainingTimeInMillis: () => 29000, awsRequestId: 'test' });\nprocess.stdout.write(JSON.stringify(r));\n`);
  const env = {
    ...process.env,
    [ENV.mode]: 'aws', [ENV.env]: 'test', [ENV.table]: 'test', [ENV.resultsBucket]: 'test-results', [ENV.rawBucket]: 'test-raw',
    [ENV.dynamoEndpoint]: stores.dynamoEndpoint, [ENV.s3Endpoint]: stores.s3Endpoint, [ENV.queueQueries]: 'http://127.0.0.1:9/unused',
    AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    [ENV.logLevel]: 'error', [ENV.originSecret]: ORIGIN_SECRET,
  };
  const { stdout } = await promisify(execFile)(process.execPath, [runner, bundles[handler]!, JSON.stringify(event)], { env, cwd: dir });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { statusCode: number; headers: Record<string, string>; body: string };
}

/** A request as CloudFront forwards it: with the origin secret header (omit with `[ORIGIN_VERIFY_HEADER]: ''`). */
const event = (method: string, path: string, headers: Record<string, string> = {}, body?: string) => ({
  version: '2.0', routeKey: `${method} ${path}`, rawPath: path, rawQueryString: '',
  headers: Object.fromEntries(Object.entries({ host: 'api.example.com', [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET, ...headers }).filter(([, v]) => v !== '')),
  requestContext: { accountId: '1', apiId: 'x', domainName: 'api.example.com', domainPrefix: 'api', http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' }, requestId: 'r', routeKey: `${method} ${path}`, stage: '$default', time: '', timeEpoch: Date.now() },
  body, isBase64Encoded: false,
});

describe('bundled Lambda handlers in aws mode', () => {
  it('serve the public info document', async () => {
    const r = await invoke('functions/http/info-get.ts', event('GET', '/v1'));
    expect(r.statusCode).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ service: 'gleaner', env: 'test' });
    expect(r.headers['x-request-id']).toMatch(/^req_/);
  });

  it('authenticate against the table through the AWS composition root', async () => {
    expect((await invoke('functions/http/tenant-get.ts', event('GET', '/v1/tenant'))).statusCode).toBe(401);
    const ok = await invoke('functions/http/tenant-get.ts', event('GET', '/v1/tenant', { authorization: `Bearer ${key}` }));
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body).name).toBe('lambda');
    expect(ok.headers['ratelimit-limit']).toBe('600');
  });

  it('validate bodies the same way (400 with details) before touching any queue', async () => {
    const r = await invoke('functions/http/queries-create.ts', event('POST', '/v1/queries', { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, JSON.stringify({ prompt: '', sources: ['x'] })));
    expect(r.statusCode).toBe(400);
    expect(JSON.parse(r.body).details[0].path).toBe('body.prompt');
  });

  it('answer 403 JSON to a request that bypassed CloudFront (no or wrong origin secret)', async () => {
    for (const secret of ['', 'wrong-secret-wrong-secret-0123456789']) {
      const r = await invoke('functions/http/tenant-get.ts', event('GET', '/v1/tenant', { authorization: `Bearer ${key}`, [ORIGIN_VERIFY_HEADER]: secret }));
      expect(r.statusCode).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ code: 'forbidden', message: expect.any(String) });
    }
  });

  it('audit the viewer address from CloudFront-Viewer-Address, not the CloudFront edge', async () => {
    const ok = await invoke('functions/http/tenant-get.ts', event('GET', '/v1/tenant', { authorization: `Bearer ${key}`, 'cloudfront-viewer-address': '198.51.100.23:51234' }));
    expect(ok.statusCode).toBe(200);
    const { data } = await listAudit(table, { tenantId, limit: 50 });
    const rec = data.find((a) => a.request_id === ok.headers['x-request-id'])!;
    expect(rec.ip).toBe('198.51.100.23');
  });
});
