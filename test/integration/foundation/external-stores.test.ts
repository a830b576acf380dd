import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { localDynamoClient } from '../../../functions/local/embedded-stores.js';
import { startTestService } from '../../support/local-service.js';

// The local service on stores of their own process (functions/local/stores-main.ts), as the crawl
// bench runs it: with GLEANER_DYNAMODB_ENDPOINT and GLEANER_S3_ENDPOINT both set it embeds nothing,
// creates what is missing, keeps its data there across restarts and leaves the stores running.
let dir: string;
let child: ChildProcessWithoutNullStreams;
let ends: { dynamoEndpoint: string; s3Endpoint: string };

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gleaner-stores-'));
  child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/stores-main.ts', '--exit-with-stdin', join(dir, 'stores'), 'gleaner', 'gleaner-results', 'gleaner-raw']);
  ends = JSON.parse(
    await new Promise<string>((res, rej) => {
      let buf = '';
      child.stdout.on('data', (d: Buffer) => (buf += d.toString()).includes('\n') && res(buf.split('\n')[0]!));
      child.once('exit', (code) => rej(new Error(`stores process exited ${code}`)));
    }),
  );
});

afterAll(async () => {
  if (child.exitCode === null) {
    child.stdin.end();
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
});

it('keeps data in the external stores across restarts and leaves them running', async () => {
  const env = { GLEANER_DYNAMODB_ENDPOINT: ends.dynamoEndpoint, GLEANER_S3_ENDPOINT: ends.s3Endpoint };
  let svc = await startTestService(env, join(dir, 'service'));
  expect(svc.stores.dynamoEndpoint).toBe(ends.dynamoEndpoint);
  const created = await svc.call('/dashboard/api/keys', { method: 'POST', json: { name: 'kept', scopes: ['runs:read'] } });
  expect(created.status).toBe(201);
  svc = await svc.restart();
  const keys = await svc.call('/dashboard/api/keys');
  expect(keys.body.data.map((k: { name: string }) => k.name)).toContain('kept');
  await svc.destroy();
  // The service closed its clients, not the stores.
  const d = await localDynamoClient(ends.dynamoEndpoint).send(new DescribeTableCommand({ TableName: 'gleaner' }));
  expect(d.Table?.TableStatus).toBe('ACTIVE');
  // The stores process stops when its parent closes its stdin.
  child.stdin.end();
  expect(await new Promise((r) => child.once('exit', r))).toBe(0);
});
