import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { DynamoDBClient, CreateTableCommand, DescribeTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { S3_CLIENT_OPTIONS, SDK_CLIENT_OPTIONS } from '../adapters/aws/sdk-options.js';
import { LocalDynamoClient } from '../adapters/local/local-dynamo-client.js';
import { LocalS3Client } from '../adapters/local/local-s3-client.js';
import { S3Client, CreateBucketCommand, HeadBucketCommand } from '@aws-sdk/client-s3';
import { closeDynaliteIterators } from './dynalite-iterators.js';
import { cacheDynaliteTables } from './dynalite-table-cache.js';
import { syncDynaliteReads } from './dynalite-sync-reads.js';
import { batchDynaliteWrites } from './dynalite-batched-writes.js';
import { cacheDynaliteConditions } from './dynalite-condition-cache.js';
import { hardenS3rverStore } from './s3rver-store.js';

const require = createRequire(import.meta.url);
const LOCAL_CREDS = { accessKeyId: 'local', secretAccessKey: 'local' };

export interface EmbeddedStores {
  dynamoEndpoint: string;
  s3Endpoint: string;
  dynamo: DynamoDBClient;
  s3: S3Client;
  close(): Promise<void>;
}

/** DynamoDB client for a dynalite (or DynamoDB Local) endpoint: item calls without the SDK's per-call machinery (local-dynamo-client.ts). */
export const localDynamoClient = (endpoint: string): DynamoDBClient =>
  new LocalDynamoClient({ ...SDK_CLIENT_OPTIONS, endpoint, region: 'local', credentials: LOCAL_CREDS, maxAttempts: 3 });

/**
 * S3 client for s3rver: path-style, and no flexible checksums (s3rver does not know them); no
 * cached middleware (S3_CLIENT_OPTIONS). Object puts without the SDK's per-call machinery (local-s3-client.ts).
 */
export const localS3Client = (endpoint: string): S3Client =>
  new LocalS3Client({
    ...S3_CLIENT_OPTIONS,
    endpoint, region: 'us-east-1', credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED',
  });

/** The table definition shared with the CDK data stack (pk/sk + gsi1 + gsi2). */
export async function ensureTable(client: DynamoDBClient, name: string): Promise<void> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return;
  } catch (e) {
    if (!(e instanceof ResourceNotFoundException) && (e as Error).name !== 'ResourceNotFoundException') throw e;
  }
  const attr = (n: string) => ({ AttributeName: n, AttributeType: 'S' as const });
  const gsi = (n: string) => ({
    IndexName: n,
    KeySchema: [{ AttributeName: `${n}pk`, KeyType: 'HASH' as const }, { AttributeName: `${n}sk`, KeyType: 'RANGE' as const }],
    Projection: { ProjectionType: 'ALL' as const },
  });
  await client.send(new CreateTableCommand({
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'].map(attr),
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    GlobalSecondaryIndexes: [gsi('gsi1'), gsi('gsi2')],
  }));
  for (let i = 0; i < 100; i++) {
    const d = await client.send(new DescribeTableCommand({ TableName: name }));
    if (d.Table?.TableStatus === 'ACTIVE') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const listen = (server: Server, port: number) =>
  new Promise<number>((res, rej) => {
    server.once('error', rej);
    server.listen(port, '127.0.0.1', () => res((server.address() as { port: number }).port));
  });

/**
 * Start dynalite (persisted under dataDir/dynamo when dataDir is set, in memory otherwise)
 * and s3rver (dataDir/s3), create the table and the buckets.
 */
export async function startEmbeddedStores(opts: { dataDir?: string; dynamoPort: number; s3Port: number; table: string; buckets: string[] }): Promise<EmbeddedStores> {
  closeDynaliteIterators();
  cacheDynaliteTables();
  syncDynaliteReads();
  batchDynaliteWrites();
  cacheDynaliteConditions();
  hardenS3rverStore();
  const dynalite = require('dynalite');
  const S3rver = require('s3rver');
  const dataDir = opts.dataDir ? resolve(opts.dataDir) : undefined;
  if (dataDir) mkdirSync(join(dataDir, 's3'), { recursive: true });
  const dyn: Server = dynalite({ path: dataDir ? join(dataDir, 'dynamo') : undefined, createTableMs: 0, updateTableMs: 0, deleteTableMs: 0 });
  const dynPort = await listen(dyn, opts.dynamoPort);
  const s3dir = dataDir ? join(dataDir, 's3') : join((await import('node:os')).tmpdir(), `gleaner-s3-${process.pid}-${Date.now()}`);
  const s3rver = new S3rver({ port: opts.s3Port, address: '127.0.0.1', directory: s3dir, silent: true, configureBuckets: opts.buckets.map((name) => ({ name })) });
  const s3addr = await s3rver.run();
  const dynamoEndpoint = `http://127.0.0.1:${dynPort}`;
  const s3Endpoint = `http://127.0.0.1:${s3addr.port}`;
  const dynamo = localDynamoClient(dynamoEndpoint);
  await ensureTable(dynamo, opts.table);
  return {
    dynamoEndpoint, s3Endpoint, dynamo, s3: localS3Client(s3Endpoint),
    async close() {
      dynamo.destroy();
      await new Promise<void>((r) => dyn.close(() => r()));
      await s3rver.close();
    },
  };
}

/**
 * Stores already running elsewhere (GLEANER_DYNAMODB_ENDPOINT and GLEANER_S3_ENDPOINT both set in
 * local mode): DynamoDB Local or a dynalite of its own, MinIO or an s3rver of its own. The table
 * and the buckets are created when missing; close() leaves the stores running.
 */
export async function connectStores(opts: { dynamoEndpoint: string; s3Endpoint: string; table: string; buckets: string[] }): Promise<EmbeddedStores> {
  const dynamo = localDynamoClient(opts.dynamoEndpoint);
  const s3 = localS3Client(opts.s3Endpoint);
  await ensureTable(dynamo, opts.table);
  for (const Bucket of opts.buckets) {
    try {
      await s3.send(new HeadBucketCommand({ Bucket }));
    } catch {
      await s3.send(new CreateBucketCommand({ Bucket }));
    }
  }
  return {
    dynamoEndpoint: opts.dynamoEndpoint, s3Endpoint: opts.s3Endpoint, dynamo, s3,
    async close() {
      dynamo.destroy();
      s3.destroy();
    },
  };
}
