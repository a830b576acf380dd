import { createRequire } from 'node:module';
import type * as DynamoSdk from '@aws-sdk/client-dynamodb';
import type * as S3Sdk from '@aws-sdk/client-s3';
import type * as SqsSdk from '@aws-sdk/client-sqs';
import type * as SchedulerSdk from '@aws-sdk/client-scheduler';
import type * as KmsSdk from '@aws-sdk/client-kms';
import type * as BedrockSdk from '@aws-sdk/client-bedrock-runtime';

/**
 * The AWS SDK client packages, loaded with `require`, not `import` (issue 31, cold init).
 *
 * They are CommonJS (their `main`) and external to our bundles (Lambda's runtime carries them).
 * An ESM `import` of a CommonJS package makes Node scan the source of its entry and of every file
 * it re-exports for export names before any of it runs; `require` loads the same modules without
 * that scan. Measured on this machine, fresh process each: loading @aws-sdk/client-dynamodb and
 * creating a client took 151-182 ms by `import`, 106-128 ms by `require`. Both share Node's one
 * CommonJS module cache, so a module loaded either way is the same instance (error classes
 * compare with `instanceof` across them). Resolution: the bundle's folder, then NODE_PATH, which
 * on Lambda includes the runtime's node_modules.
 *
 * Each loader is called where the client is first needed: `require` is synchronous, so a module
 * that calls one at its top level loads the SDK when it is itself loaded.
 */
const requireCjs = createRequire(import.meta.url);

export const dynamoSdk = (): typeof DynamoSdk => requireCjs('@aws-sdk/client-dynamodb') as typeof DynamoSdk;
export const s3Sdk = (): typeof S3Sdk => requireCjs('@aws-sdk/client-s3') as typeof S3Sdk;
export const sqsSdk = (): typeof SqsSdk => requireCjs('@aws-sdk/client-sqs') as typeof SqsSdk;
export const schedulerSdk = (): typeof SchedulerSdk => requireCjs('@aws-sdk/client-scheduler') as typeof SchedulerSdk;
export const kmsSdk = (): typeof KmsSdk => requireCjs('@aws-sdk/client-kms') as typeof KmsSdk;
export const bedrockSdk = (): typeof BedrockSdk => requireCjs('@aws-sdk/client-bedrock-runtime') as typeof BedrockSdk;
