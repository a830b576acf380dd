import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SQSClient } from '@aws-sdk/client-sqs';
import { SchedulerClient } from '@aws-sdk/client-scheduler';
import { KMSClient } from '@aws-sdk/client-kms';

/** Design yardstick: all five SDK clients imported and constructed at init (the old aws-deps.ts). */
const clients = [new DynamoDBClient({}), new S3Client({}), new SQSClient({}), new SchedulerClient({}), new KMSClient({})];

export const handler = async () => ({ statusCode: 200, body: String(clients.length) });
