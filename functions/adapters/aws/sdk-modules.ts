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
 * that calls one at its top level loads the SDK when it is itself loaded. A loader keeps the module
 * it loaded: callers on a hot path (an S3 put per crawled page) call it each time at no cost.
 */
const requireCjs = createRequire(import.meta.url);

/** A loader of one package: required on its first call, the same module after. */
function loader<T>(name: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= requireCjs(name) as T);
}

export const dynamoSdk = loader<typeof DynamoSdk>('@aws-sdk/client-dynamodb');
export const s3Sdk = loader<typeof S3Sdk>('@aws-sdk/client-s3');
export const sqsSdk = loader<typeof SqsSdk>('@aws-sdk/client-sqs');
export const schedulerSdk = loader<typeof SchedulerSdk>('@aws-sdk/client-scheduler');
export const kmsSdk = loader<typeof KmsSdk>('@aws-sdk/client-kms');
export const bedrockSdk = loader<typeof BedrockSdk>('@aws-sdk/client-bedrock-runtime');
