import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import { SDK_CLIENT_OPTIONS } from '../../../functions/adapters/aws/sdk-options.js';

/** In-memory dynalite + s3rver on ephemeral ports, for adapter and core tests. */
export async function memoryStores(): Promise<{ stores: EmbeddedStores; table: DynamoTable }> {
  const stores = await startEmbeddedStores({ dynamoPort: 0, s3Port: 0, table: 'test', buckets: ['test-results', 'test-raw'] });
  return { stores, table: new DynamoTable('test', stores.dynamo) };
}

/** The same table over the AWS SDK's own client (as the functions use it on AWS), not the local one. */
export const sdkTable = (stores: EmbeddedStores): DynamoTable =>
  new DynamoTable('test', new DynamoDBClient({ ...SDK_CLIENT_OPTIONS, endpoint: stores.dynamoEndpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
