import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { KMSClient } from '@aws-sdk/client-kms';

/**
 * Design yardstick: the five SDKs imported statically (so loaded at init) but only the DynamoDB
 * client constructed; the others would be constructed on demand. Compared with the bare handler
 * and with sdk-eager-all.ts, it shows what loading an unused SDK module costs by itself, which is
 * why aws-deps.ts imports every SDK but DynamoDB with import() on first use.
 */
const client = new DynamoDBClient({});
const later = [S3Client, SQSClient, SchedulerClient, KMSClient];

export const handler = async () => ({ statusCode: 200, body: `${client.config.serviceId ?? 'DynamoDB'} +${later.length}` });
