import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';

/**
 * The yardstick of the cold-start bench's authenticated path: the least a Gleaner API function
 * could do for a first request with a key, load the SDK (ESM import, as most handlers are written),
 * create one DynamoDB client and make one table call. The bench points every arm at the same
 * endpoint that refuses connections (GLEANER_DYNAMODB_ENDPOINT) with one attempt (AWS_MAX_ATTEMPTS),
 * so both sides pay the same network cost: none.
 */
const client = new DynamoDBClient({ endpoint: process.env.GLEANER_DYNAMODB_ENDPOINT });

export const handler = async () => {
  try {
    await client.send(new GetItemCommand({ TableName: process.env.GLEANER_TABLE ?? 'bench', Key: { pk: { S: 'key#bench' }, sk: { S: 'key' } } }));
    return { statusCode: 200, body: 'found' };
  } catch {
    return { statusCode: 503, body: 'table unreachable' };
  }
};
