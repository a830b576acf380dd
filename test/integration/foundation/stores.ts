import { startEmbeddedStores, type EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';

/** In-memory dynalite + s3rver on ephemeral ports, for adapter and core tests. */
export async function memoryStores(): Promise<{ stores: EmbeddedStores; table: DynamoTable }> {
  const stores = await startEmbeddedStores({ dynamoPort: 0, s3Port: 0, table: 'test', buckets: ['test-results', 'test-raw'] });
  return { stores, table: new DynamoTable('test', stores.dynamo) };
}
