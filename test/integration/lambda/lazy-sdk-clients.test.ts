import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../../lib/gleaner-function.js';
import { cdkBundle } from '../../../bench/cdk-bundle.js';
import { memoryStores } from '../foundation/stores.js';
import { createTenant } from '../../../functions/core/tenancy/tenants.js';
import { createApiKey } from '../../../functions/core/tenancy/api-keys.js';
import { putResultFile } from '../../../functions/core/storage/result-files.js';
import { S3Blobs } from '../../../functions/adapters/aws/s3-blobs.js';
import { ENV, ORIGIN_VERIFY_HEADER } from '../../../functions/config.js';

/** The API runs behind CloudFront's origin secret in aws mode; the test plays CloudFront. */
const ORIGIN_SECRET = 'lazy-sdk-test-origin-secret-000';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// The AWS composition root creates an SDK client (and loads its SDK module) only when a port is
// first used: a function that reads the table never loads the S3, SQS, Scheduler or KMS SDKs.
// Observed from the outside: handlers bundled as CDK bundles them, run in a fresh Node process in
// aws mode against dynalite and s3rver, report which @aws-sdk clients Node has loaded.
let stores: EmbeddedStores;
let dir: string;
let key: string;
let tenantId: string;
const bundles: Record<string, string> = {};
const routeTableFiles: string[] = [];

beforeAll(async () => {
  const s = await memoryStores();
  stores = s.stores;
  const t = await createTenant(s.table, 'lazy', new Date());
  tenantId = t.tenant_id;
  key = (await createApiKey(s.table, { tenantId, scopes: ['*'] }, new Date())).api_key;
  const blobs = new S3Blobs(stores.s3, { results: 'test-results', raw: 'test-raw' });
  await putResultFile(s.table, blobs, tenantId, { key: 'q_lazy', query_id: 'q_lazy', job_id: null, created_at: new Date().toISOString() }, { hello: 'world' });
  dir = mkdtempSync(join(REPO_ROOT, '.tmp-lazy-sdk-'));
  for (const h of ['functions/http/tenant-get.ts', 'functions/http/storage-get.ts']) bundles[h] = (await cdkBundle(h, join(dir, h.split('/').pop()!.replace('.ts', '')))).file;
  // The same function with every output file that holds the route table deleted (see the last test).
  const b = await cdkBundle('functions/http/tenant-get.ts', join(dir, 'without-route-table'));
  for (const [out, o] of Object.entries(b.metafile.outputs)) {
    if (!Object.keys(o.inputs).includes('functions/routes.ts')) continue;
    const file = isAbsolute(out) ? out : join(REPO_ROOT, out);
    routeTableFiles.push(file);
    rmSync(file);
    rmSync(`${file}.map`, { force: true });
  }
  bundles['without-route-table'] = b.file;
  writeFileSync(
    join(dir, 'invoke.mjs'),
    [
      "import { createRequire } from 'node:module';",
      'const { handler } = await import(process.argv[2]);',
      "const loaded = () => [...new Set(Object.keys(createRequire(import.meta.url).cache).map((k) => /@aws-sdk\\/(client-[a-z0-9-]+)\\//.exec(k)?.[1]).filter(Boolean))].sort();",
      'const atInit = loaded();',
      "const r = await handler(JSON.parse(process.argv[3]), { getRemainingTimeInMillis: () => 29000, awsRequestId: 'test' });",
      'process.stdout.write(`\\n${JSON.stringify({ status: r.statusCode, body: r.body, atInit, afterCall: loaded() })}\\n`);',
      'process.exit(0);',
    ].join('\n'),
  );
}, 120_000);
afterAll(async () => {
  await stores?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function invoke(handler: string, path: string, params: Record<string, string>) {
  const event = {
    version: '2.0', routeKey: `GET ${path}`, rawPath: path, rawQueryString: '', headers: { host: 'api.example.com', authorization: `Bearer ${key}`, [ORIGIN_VERIFY_HEADER]: ORIGIN_SECRET }, pathParameters: params,
    requestContext: { accountId: '1', apiId: 'x', domainName: 'api.example.com', domainPrefix: 'api', http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' }, requestId: 'r', routeKey: `GET ${path}`, stage: '$default', time: '', timeEpoch: Date.now() },
    isBase64Encoded: false,
  };
  const env = {
    ...process.env,
    [ENV.mode]: 'aws', [ENV.originSecret]: ORIGIN_SECRET, [ENV.env]: 'test', [ENV.table]: 'test', [ENV.resultsBucket]: 'test-results', [ENV.rawBucket]: 'test-raw',
    [ENV.dynamoEndpoint]: stores.dynamoEndpoint, [ENV.s3Endpoint]: stores.s3Endpoint, [ENV.queueQueries]: 'http://127.0.0.1:9/unused', [ENV.kmsKeyId]: 'unused',
    AWS_REGION: 'us-east-1', // s3rver checks its own fixed credentials; dynalite accepts any.
    AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', [ENV.logLevel]: 'error',
  };
  const { stdout } = await promisify(execFile)(process.execPath, [join(dir, 'invoke.mjs'), bundles[handler]!, JSON.stringify(event)], { env, cwd: dir });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { status: number; body: string; atInit: string[]; afterCall: string[] };
}

describe('AWS SDK clients in a bundled API function', () => {
  it('are not loaded at init, and a table-only call loads DynamoDB only', async () => {
    const r = await invoke('functions/http/tenant-get.ts', '/v1/tenant', {});
    expect(r.status).toBe(200);
    // The composition root (and the DynamoDB SDK with it) is a chunk of its own, loaded by the
    // first call (lib/gleaner-function.ts splitBundleArgs): Init loads no SDK at all.
    expect(r.atInit).toEqual([]);
    expect(r.afterCall).toEqual(['client-dynamodb']);
  });

  it('load S3 on the first blob read, and still no SQS, Scheduler or KMS', async () => {
    const r = await invoke('functions/http/storage-get.ts', '/v1/storage/q_lazy', { key: 'q_lazy' });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual({ hello: 'world' });
    expect(r.atInit).toEqual([]);
    expect(r.afterCall).toEqual(['client-dynamodb', 'client-s3']);
  });

  it('answer their own route without loading the route table: the route is written into the bundle', async () => {
    // lib/gleaner-function.ts routeDefine: each single-route function's build defines its route's
    // row, so the first call does not load every route's row (functions/routes.ts) to find its own.
    expect(routeTableFiles.length).toBeGreaterThan(0);
    expect(routeTableFiles.some((f) => f.endsWith('index.mjs'))).toBe(false);
    const r = await invoke('without-route-table', '/v1/tenant', {});
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toMatchObject({ tenant_id: tenantId });
  });
});
