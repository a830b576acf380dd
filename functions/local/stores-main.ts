import { join } from 'node:path';
import { startEmbeddedStores } from './embedded-stores.js';
import { guardStoreErrors } from './store-error-guard.js';

/**
 * The local data stores (dynalite and s3rver) in a process of their own:
 * `tsx functions/local/stores-main.ts [--exit-with-stdin] [--port=N] <dataDir> <table> <bucket>...`.
 * Prints one JSON line `{dynamoEndpoint, s3Endpoint}` when ready; stops on SIGTERM or SIGINT, and
 * with --exit-with-stdin when its stdin closes (a parent that spawned it died). The local service
 * uses it with GLEANER_DYNAMODB_ENDPOINT and GLEANER_S3_ENDPOINT, so the service's own memory can be
 * told from the stand-ins' (bench/crawl.bench.ts).
 */
const args = process.argv.slice(2);
const withStdin = args.includes('--exit-with-stdin');
const portArg = args.find((a) => a.startsWith('--port='));
const port = portArg ? Number(portArg.slice('--port='.length)) : 0;
const [dataDir, table, ...buckets] = args.filter((a) => !a.startsWith('--'));
if (!dataDir || !table || !Number.isInteger(port) || port < 0 || port > 65534) {
  console.error('usage: stores-main.ts [--exit-with-stdin] [--port=N (DynamoDB on N, S3 on N+1; default any free ports)] <dataDir> <table> <bucket>...');
  process.exit(2);
}
guardStoreErrors([join(dataDir, 's3'), join(dataDir, 'dynamo')]);
const stores = await startEmbeddedStores({ dataDir, dynamoPort: port, s3Port: port ? port + 1 : 0, table, buckets });
const stop = () => void stores.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
if (withStdin) process.stdin.on('end', stop).resume();
process.stdout.write(`${JSON.stringify({ dynamoEndpoint: stores.dynamoEndpoint, s3Endpoint: stores.s3Endpoint })}\n`);
