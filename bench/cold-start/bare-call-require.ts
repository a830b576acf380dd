import { createRequire } from 'node:module';
import type * as DynamoSdk from '@aws-sdk/client-dynamodb';

/**
 * bare-call.ts with its SDK loaded by `require`, as Gleaner's functions load it
 * (functions/adapters/aws/sdk-modules.ts): one client, one table call against the refused endpoint.
 */
const { DynamoDBClient, GetItemCommand } = createRequire(import.meta.url)('@aws-sdk/client-dynamodb') as typeof DynamoSdk;
const client = new DynamoDBClient({ endpoint: process.env.GLEANER_DYNAMODB_ENDPOINT });

export const handler = async () => {
  try {
    await client.send(new GetItemCommand({ TableName: process.env.GLEANER_TABLE ?? 'bench', Key: { pk: { S: 'key#bench' }, sk: { S: 'key' } } }));
    return { statusCode: 200, body: 'found' };
  } catch {
    return { statusCode: 503, body: 'table unreachable' };
  }
};
