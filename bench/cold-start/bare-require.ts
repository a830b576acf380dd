import { createRequire } from 'node:module';
import type * as DynamoSdk from '@aws-sdk/client-dynamodb';

/**
 * A yardstick beside the bare handler: the same one DynamoDB client, its SDK loaded with `require`
 * as Gleaner's functions load it (functions/adapters/aws/sdk-modules.ts) instead of an ESM import,
 * which scans the CommonJS package's sources for export names first. The API handlers' ratio to
 * this one is what is left of their own init once the SDK is loaded the same way.
 */
const { DynamoDBClient } = createRequire(import.meta.url)('@aws-sdk/client-dynamodb') as typeof DynamoSdk;
const client = new DynamoDBClient({});

export const handler = async () => ({ statusCode: 200, body: client.config.serviceId ?? 'DynamoDB' });
