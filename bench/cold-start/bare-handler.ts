import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * The yardstick of the cold-start bench: the least a Gleaner API function could do at init,
 * create one DynamoDB client. Bundled exactly as the real handlers are.
 */
const client = new DynamoDBClient({});

export const handler = async () => ({ statusCode: 200, body: client.config.serviceId ?? 'DynamoDB' });
