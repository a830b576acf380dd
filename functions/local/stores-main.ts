import { join } from 'node:path';
import { startEmbeddedStores } from './embedded-stores.js';
import { guardStoreErrors } from './store-error-guard.js';

/**
 * The local data stores (dynalite and s3rver) in a process of their own:
 * `tsx functions/local/stores-main.ts [--exit-with-stdin] [--port=N] <dataDir> <table> <bucket>...`.
 * Prints one JSON line `{dynamoEndpoint, s3Endpoint}` when ready; stops on SIGTERM or SIGINT, and
 * with --exit-with-stdin when its stdin closes (its parent stopped it, or died). `npm start` runs
 * it as its child (stores-process.ts); a service started with GLEANER_DYNAMODB_ENDPOINT and
 * GLEANER_S3_ENDPOINT can use one started by hand.
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
const stop = () => {
  // Bounded: a client that never closes its connection must not keep the data locked.
  setTimeout(() => process.exit(0), 5_000).unref();
  void stores.close().finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
// Under a parent (--exit-with-stdin), Ctrl-C in the terminal reaches this process too: the parent
// still needs the stores for its own shutdown, and ends them by closing stdin when it is done.
process.on('SIGINT', withStdin ? () => undefined : stop);
if (withStdin) process.stdin.on('end', stop).resume();
process.stdout.write(`${JSON.stringify({ dynamoEndpoint: stores.dynamoEndpoint, s3Endpoint: stores.s3Endpoint })}\n`);
