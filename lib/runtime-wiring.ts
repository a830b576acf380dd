import { ArnFormat, Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { ENV } from '../functions/config.js';
import type { Grant, WorkerDef } from '../functions/routes.js';

export type QueueId = WorkerDef['id'];

/** The stateful resources every function may be wired to (DataStack). */
export interface DataResources {
  table: ITable;
  resultsBucket: IBucket;
  rawBucket: IBucket;
  secretsKey: IKey;
}

/** The schedule group runtime code creates schedules in, and the role those schedules assume. */
export interface SchedulerResources {
  groupName: string;
  role: IRole;
}

/** Everything a function can be granted access to or told about. */
export interface RuntimeResources extends DataResources {
  queues: Record<QueueId, IQueue>;
  scheduler: SchedulerResources;
}

/** Which env var carries which queue's URL (names from functions/config.ts). */
export const QUEUE_URL_ENV: Record<QueueId, string> = {
  runs: ENV.queueRuns,
  queries: ENV.queueQueries,
  deliveries: ENV.queueDeliveries,
  jobs: ENV.queueJobs,
};

export interface RuntimeEnvOptions {
  stage: string;
  /** Where the service is reachable, when known at synth time. */
  publicUrl?: string;
  bedrockModelId?: string;
  extractionModelId?: string;
}

/** The environment every Gleaner function gets: what functions/config.ts reads in aws mode. */
export function runtimeEnvironment(r: RuntimeResources, opts: RuntimeEnvOptions): Record<string, string> {
  const env: Record<string, string> = {
    [ENV.mode]: 'aws',
    [ENV.env]: opts.stage,
    [ENV.table]: r.table.tableName,
    [ENV.resultsBucket]: r.resultsBucket.bucketName,
    [ENV.rawBucket]: r.rawBucket.bucketName,
    [ENV.jobsQueueArn]: r.queues.jobs.queueArn,
    [ENV.schedulerGroup]: r.scheduler.groupName,
    [ENV.schedulerRoleArn]: r.scheduler.role.roleArn,
    // KMS accepts a key ARN wherever it takes a KeyId; the ARN is unambiguous across regions.
    [ENV.kmsKeyId]: r.secretsKey.keyArn,
  };
  for (const [id, name] of Object.entries(QUEUE_URL_ENV) as [QueueId, string][]) env[name] = r.queues[id].queueUrl;
  if (opts.publicUrl) env[ENV.publicUrl] = opts.publicUrl;
  if (opts.bedrockModelId) env[ENV.bedrockModel] = opts.bedrockModelId;
  if (opts.extractionModelId) env[ENV.extractionModel] = opts.extractionModelId;
  // Graph API version per deployment: `cdk deploy -c graphApiVersion=v26.0` (runtime default: the newest stable).
  const graphApiVersion = Stack.of(r.table).node.tryGetContext('graphApiVersion') as unknown;
  if (typeof graphApiVersion === 'string' && graphApiVersion.trim()) env[ENV.graphApiVersion] = graphApiVersion.trim();
  return env;
}

/**
 * IAM actions per grant: exactly the operations Gleaner's adapters send (functions/adapters/aws),
 * never a wildcard, and never CDK's broad grant helpers, which add actions the code does not use
 * (Scan, DescribeTable, stream reads, s3:List*, s3:GetBucket*, s3:PutObjectAcl...). The IAM
 * behaviour test (test/integration/lambda/iam-behaviour.test.ts) records what each function
 * sends and fails when one of these lists misses an action.
 */
export const GRANT_ACTIONS = {
  /** GetItem, BatchGetItem and Query (table and its indexes); the adapter issues nothing else to read. */
  tableRead: ['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:BatchGetItem'],
  /** Every write the adapter has: put, update, delete (conditional or not) and batch write. */
  tableWrite: ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'],
  /**
   * What the request pipeline itself writes on every authenticated call, reads included: the
   * audit record (PutItem), rate-limit and usage counters and the key's last use (UpdateItem).
   * These items share the tenant's partition with its data (`TEN#<id>`: rate buckets, usage,
   * idempotency), so `dynamodb:LeadingKeys` cannot tell them apart; the real limit this grant
   * sets is that a read-only route can neither delete nor batch-write.
   */
  tablePipeline: ['dynamodb:PutItem', 'dynamodb:UpdateItem'],
  objectRead: ['s3:GetObject'],
  objectWrite: ['s3:PutObject'],
  objectDelete: ['s3:DeleteObject'],
  queueSend: ['sqs:SendMessage'],
  kms: ['kms:Encrypt', 'kms:Decrypt'],
  /** The adapter upserts (update, then create when missing) and removes; it never reads a schedule. */
  scheduler: ['scheduler:CreateSchedule', 'scheduler:UpdateSchedule', 'scheduler:DeleteSchedule'],
  bedrock: ['bedrock:InvokeModel'],
} as const;

/** Every object Gleaner stores is under `tenants/<tenant_id>/` (core/storage, core/runs). */
export const OBJECT_PREFIX = 'tenants/';

/**
 * Turns a row's `grants` into least-privilege IAM grants on `fn`. Nothing is granted that the
 * row does not name; a function with no grants gets only its basic execution role.
 */
export function applyGrants(fn: IFunction, grants: readonly Grant[], r: RuntimeResources, opts: { extractionModelId?: string } = {}): void {
  const has = (g: Grant) => grants.includes(g);
  const allow = (actions: readonly string[], resources: string[], conditions?: Record<string, unknown>) =>
    fn.addToRolePolicy(new PolicyStatement({ actions: [...actions], resources, conditions }));

  // Reads cover the indexes (Query by gsi1/gsi2); writes go to the table only (indexes are
  // maintained by DynamoDB, never written directly).
  if (has('table:read')) allow(GRANT_ACTIONS.tableRead, [r.table.tableArn, `${r.table.tableArn}/index/*`]);
  if (has('table:write')) allow(GRANT_ACTIONS.tableWrite, [r.table.tableArn]);
  else if (has('table:pipeline')) allow(GRANT_ACTIONS.tablePipeline, [r.table.tableArn]);

  for (const [bucket, prefix] of [[r.resultsBucket, 'results'], [r.rawBucket, 'raw']] as const) {
    const objects = [bucket.arnForObjects(`${OBJECT_PREFIX}*`)];
    if (has(`${prefix}:read`)) allow(GRANT_ACTIONS.objectRead, objects);
    if (has(`${prefix}:write`)) allow(GRANT_ACTIONS.objectWrite, objects);
    if (prefix === 'results' && has('results:delete')) allow(GRANT_ACTIONS.objectDelete, objects);
  }

  for (const id of Object.keys(r.queues) as QueueId[]) {
    if (has(`queue:${id}`)) allow(GRANT_ACTIONS.queueSend, [r.queues[id].queueArn]);
  }

  if (has('kms')) allow(GRANT_ACTIONS.kms, [r.secretsKey.keyArn]);

  if (has('scheduler')) {
    const stack = Stack.of(fn);
    allow(GRANT_ACTIONS.scheduler, [
      stack.formatArn({
        service: 'scheduler',
        resource: 'schedule',
        resourceName: `${r.scheduler.groupName}/*`,
        arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
      }),
    ]);
    allow(['iam:PassRole'], [r.scheduler.role.roleArn], { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
  }

  if (has('bedrock')) {
    const stack = Stack.of(fn);
    allow(GRANT_ACTIONS.bedrock, [
      // Foundation models in any region: cross-region inference profiles route there.
      `arn:${stack.partition}:bedrock:*::foundation-model/*`,
      stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: '*', region: '*' }),
    ]);
  }

  if (has('model') && opts.extractionModelId) allow(GRANT_ACTIONS.bedrock, extractionModelArns(Stack.of(fn), opts.extractionModelId));
}

/** Cross-region inference profile ids start with a geography: `us.anthropic.claude-…`. */
const PROFILE_ID = /^(us|us-gov|eu|apac|ca|jp|au|global)\.(.+)$/;

/**
 * What InvokeModel must be allowed on for one model id: a foundation model in this region; for a
 * cross-region inference profile, the profile in this region and its model in every region it
 * may route to; an ARN as given.
 */
export function extractionModelArns(stack: Stack, modelId: string): string[] {
  if (modelId.startsWith('arn:')) return [modelId];
  const profile = PROFILE_ID.exec(modelId);
  if (profile)
    return [
      stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: modelId }),
      `arn:${stack.partition}:bedrock:*::foundation-model/${profile[2]}`,
    ];
  return [`arn:${stack.partition}:bedrock:${stack.region}::foundation-model/${modelId}`];
}
