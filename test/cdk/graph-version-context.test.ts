import { describe, expect, it } from 'vitest';
import { App, Stack } from 'aws-cdk-lib';
import { Table } from 'aws-cdk-lib/aws-dynamodb';
import { runtimeEnvironment, type RuntimeResources } from '../../lib/runtime-wiring.js';
import { ENV } from '../../functions/config.js';

/** The Graph API version is a deployment setting: CDK context `graphApiVersion` → GLEANER_GRAPH_API_VERSION. */
function resources(stack: Stack): RuntimeResources {
  const queue = { queueArn: 'arn:aws:sqs:eu-west-1:1:q', queueUrl: 'https://sqs/q' };
  return {
    table: Table.fromTableName(stack, 'T', 'gleaner'),
    resultsBucket: { bucketName: 'r' },
    rawBucket: { bucketName: 'w' },
    secretsKey: { keyArn: 'arn:aws:kms:eu-west-1:1:key/k' },
    queues: { runs: queue, queries: queue, deliveries: queue, jobs: queue },
    scheduler: { groupName: 'g', role: { roleArn: 'arn:aws:iam::1:role/s' } },
  } as unknown as RuntimeResources;
}

describe('runtimeEnvironment and the Graph API version', () => {
  it('passes the CDK context value to every function', () => {
    const stack = new Stack(new App({ context: { graphApiVersion: 'v25.0' } }), 'S');
    expect(runtimeEnvironment(resources(stack), { stage: 'test' })[ENV.graphApiVersion]).toBe('v25.0');
  });
  it('leaves it unset without context, so the runtime default (the newest stable version) applies', () => {
    const stack = new Stack(new App(), 'S');
    expect(runtimeEnvironment(resources(stack), { stage: 'test' })).not.toHaveProperty(ENV.graphApiVersion);
  });
});
