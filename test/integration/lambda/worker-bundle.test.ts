import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundlingOptions, REPO_ROOT } from '../../../lib/gleaner-function.js';
import { memoryStores } from '../foundation/stores.js';
import { startSqsEndpoint } from '../../fixtures/sqs-endpoint.js';
import { ENV } from '../../../functions/config.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

// The jobs worker bundled as CDK bundles it and invoked in a fresh process as Lambda invokes it,
// in aws mode: dynalite for the table, a loopback SQS endpoint recording what the worker sends.
let stores: EmbeddedStores;
let sqs: Awaited<ReturnType<typeof startSqsEndpoint>>;
let dir: string;
let bundle: string;

beforeAll(async () => {
  ({ stores } = await memoryStores());
  sqs = await startSqsEndpoint();
  dir = mkdtempSync(join(REPO_ROOT, '.tmp-worker-'));
  const opts = bundlingOptions();
  bundle = join(dir, 'jobs-worker.mjs');
  await build({
    entryPoints: [join(REPO_ROOT, 'functions/workers/jobs-worker.ts')], outfile: bundle, bundle: true, platform: 'node', format: 'esm', target: opts.target,
    banner: { js: opts.banner! }, external: opts.externalModules ?? [], minify: true, logLevel: 'silent',
  });
}, 120_000);
afterAll(async () => {
  await stores?.close();
  await sqs?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function invoke(event: unknown) {
  const runner = join(dir, 'invoke.mjs');
  writeFileSync(runner, `const { handler } = await import(process.argv[2]);\nconst r = await handler(JSON.parse(process.argv[3]), { getRemainingTimeInMillis: () => 55000, awsRequestId: 'test' });\nprocess.stdout.write('\\n' + JSON.stringify(r));\n`);
  const env = {
    ...process.env,
    [ENV.mode]: 'aws', [ENV.env]: 'test', [ENV.table]: 'test', [ENV.resultsBucket]: 'test-results', [ENV.rawBucket]: 'test-raw',
    [ENV.dynamoEndpoint]: stores.dynamoEndpoint, [ENV.s3Endpoint]: stores.s3Endpoint,
    [ENV.queueJobs]: `${sqs.url}/000000000000/jobs`, [ENV.queueQueries]: `${sqs.url}/000000000000/queries`, [ENV.deadLetterQueue]: `${sqs.url}/000000000000/jobs-dlq`,
    AWS_ENDPOINT_URL_SQS: sqs.url, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    [ENV.logLevel]: 'silent',
  };
  const { stdout } = await promisify(execFile)(process.execPath, [runner, bundle, JSON.stringify(event)], { env, cwd: dir });
  return JSON.parse(stdout.trim().split('\n').pop()!) as { batchItemFailures: Array<{ itemIdentifier: string }> };
}

const record = (id: string, body: string) => ({
  messageId: id, receiptHandle: `rh-${id}`, body, attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
  messageAttributes: {}, md5OfBody: '', eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:jobs', awsRegion: 'us-east-1',
});

describe('the bundled jobs worker in aws mode', () => {
  it('processes a good record and sends malformed ones to its DLQ instead of acknowledging them unseen', async () => {
    const res = await invoke({
      Records: [
        record('sweep', JSON.stringify({ kind: 'storage.sweep' })),
        record('garbage', 'this is not json'),
        record('unknown-kind', JSON.stringify({ kind: 'job.explode', tenant_id: 't' })),
      ],
    });
    expect(res.batchItemFailures).toEqual([]);
    const sent = sqs.calls.filter((c) => c.action === 'SendMessage').map((c) => c.input);
    expect(sent.map((m) => m.QueueUrl)).toEqual([`${sqs.url}/000000000000/jobs-dlq`, `${sqs.url}/000000000000/jobs-dlq`]);
    expect(sent.map((m) => m.MessageBody).sort()).toEqual(['this is not json', JSON.stringify({ kind: 'job.explode', tenant_id: 't' })]);
  });
});
