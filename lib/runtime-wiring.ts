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
  // Graph API version per deployment: `cdk deploy -c graphApiVersion=v26.0` (runtime default: the newest stable).
  const graphApiVersion = Stack.of(r.table).node.tryGetContext('graphApiVersion') as unknown;
  if (typeof graphApiVersion === 'string' && graphApiVersion.trim()) env[ENV.graphApiVersion] = graphApiVersion.trim();
  return env;
}

const SCHEDULE_ACTIONS = [
  'scheduler:CreateSchedule',
  'scheduler:UpdateSchedule',
  'scheduler:DeleteSchedule',
  'scheduler:GetSchedule',
];

/**
 * Turns a row's `grants` into least-privilege IAM grants on `fn`. Nothing is granted that the
 * row does not name; a function with no grants gets only its basic execution role.
 */
export function applyGrants(fn: IFunction, grants: readonly Grant[], r: RuntimeResources): void {
  const has = (g: Grant) => grants.includes(g);

  if (has('table:read') && has('table:write')) r.table.grantReadWriteData(fn);
  else if (has('table:read')) r.table.grantReadData(fn);
  else if (has('table:write')) r.table.grantWriteData(fn);

  for (const [bucket, read, write] of [
    [r.resultsBucket, 'results:read', 'results:write'],
    [r.rawBucket, 'raw:read', 'raw:write'],
  ] as const) {
    if (has(read) && has(write)) bucket.grantReadWrite(fn);
    else if (has(read)) bucket.grantRead(fn);
    else if (has(write)) bucket.grantPut(fn);
  }

  for (const id of Object.keys(r.queues) as QueueId[]) {
    if (has(`queue:${id}`)) r.queues[id].grantSendMessages(fn);
  }

  if (has('kms')) r.secretsKey.grantEncryptDecrypt(fn);

  if (has('scheduler')) {
    const stack = Stack.of(fn);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: SCHEDULE_ACTIONS,
        resources: [
          stack.formatArn({
            service: 'scheduler',
            resource: 'schedule',
            resourceName: `${r.scheduler.groupName}/*`,
            arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
          }),
        ],
      }),
    );
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['iam:PassRole'],
        resources: [r.scheduler.role.roleArn],
        conditions: { StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } },
      }),
    );
  }

  if (has('bedrock')) {
    const stack = Stack.of(fn);
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['bedrock:InvokeModel'],
        resources: [
          // Foundation models in any region: cross-region inference profiles route there.
          `arn:${stack.partition}:bedrock:*::foundation-model/*`,
          stack.formatArn({ service: 'bedrock', resource: 'inference-profile', resourceName: '*', region: '*' }),
        ],
      }),
    );
  }
}
