import { loadConfig } from '../config.js';
import { setLogLevel, log } from '../core/log.js';
import { checkPorts, PortInUseError, startLocal } from './local-server.js';
import { guardStoreErrors } from './store-error-guard.js';
import { spawnStores, waitForEarlierStores, type StoresProcess } from './stores-process.js';
import { join } from 'node:path';

/**
 * `npm start`: the whole service, data in ./.data. The data stores (dynalite and s3rver) run in a
 * child process (stores-process.ts) unless GLEANER_LOCAL_STORES=embedded or external stores are
 * configured; everything else (API, console, queues, workers, scheduler) in this one, crawl slices
 * on a thread of their own (crawl-thread.ts).
 */
async function main() {
  // Lambda runs Node 22; locally Node 20 is supported, so the SDK's upgrade notice is noise here.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  let cfg;
  try {
    cfg = loadConfig();
  } catch (e) {
    console.error((e as Error).message);
    process.exit(2);
  }
  setLogLevel(cfg.logLevel);
  let stores: StoresProcess | undefined;
  const external = !!(cfg.dynamoEndpoint && cfg.s3Endpoint);
  if (!external && cfg.localStores === 'process') {
    // A start right after a killed one: its stores child may still be letting go of the data.
    await waitForEarlierStores(cfg.dataDir);
    await checkPorts(cfg);
    stores = await spawnStores({ dataDir: cfg.dataDir, port: cfg.port === 0 ? 0 : cfg.port + 1, table: cfg.table, buckets: [cfg.resultsBucket, cfg.rawBucket] });
    stores.onUnexpectedExit((code, signal) => {
      console.error(`The data stores process (pid ${stores!.pid}) exited (${code ?? signal}); Gleaner stops. Run npm start again.`);
      process.exit(1);
    });
    cfg = { ...cfg, dynamoEndpoint: stores.dynamoEndpoint, s3Endpoint: stores.s3Endpoint };
  } else if (!external) {
    // The embedded stores run in this process: an error escaping one must not end the service.
    guardStoreErrors([join(cfg.dataDir, 's3'), join(cfg.dataDir, 'dynamo')]);
  }
  let svc;
  try {
    svc = await startLocal(cfg);
  } catch (e) {
    await stores?.stop();
    throw e;
  }
  // The crawl thread is not started here: the first crawl slice starts it, and it ends once idle
  // (crawl-thread.ts, CRAWL_THREAD_IDLE_MS), so the service at rest carries no crawl thread.
  const base = cfg.publicUrl ?? svc.url;
  const lines = [
    '',
    `Gleaner is running (env ${cfg.env}, data in ${cfg.dataDir})`,
    `  base_url     ${base}/v1`,
    `  console_url  ${base}/`,
    `  mcp_url      ${base}   (agent endpoint: POST ${base}/mcp)`,
    `  docs         ${base}/docs`,
    `  dynamodb     ${svc.stores.dynamoEndpoint}   (operator CLI: npm run admin -- tenants list)`,
  ];
  if (svc.bootstrapKey)
    lines.push('', 'Admin API key for tenant "default" (shown once; store it now):', `  ${svc.bootstrapKey}`, '', `  curl -H "Authorization: Bearer ${svc.bootstrapKey}" ${base}/v1/scrapers`);
  else if (cfg.bootstrapKey) lines.push('', 'Admin API key: the one in GLEANER_BOOTSTRAP_API_KEY');
  else lines.push('', 'Admin key: printed on first start; create another with: npm run admin -- keys create --tenant ' + svc.tenantId + ' --scopes "*"');
  process.stdout.write(lines.join('\n') + '\n\n');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info('shutting down', { signal });
    // close() stops runs and closes every browser (awaiting each process, removing its profile);
    // should anything hang, still exit rather than linger half-closed.
    setTimeout(() => process.exit(1), 20_000).unref();
    await svc.close().catch((e) => log.error('shutdown error', { err: e }));
    await stores?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((e) => {
  // The ports are checked before anything starts (checkPorts): one line, no stack.
  if (e instanceof PortInUseError) console.error(e.message);
  else if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE')
    console.error(`A port is already in use (${(e as Error).message}). Set PORT to another value: PORT, PORT+1 and PORT+2 must be free (the last two for the embedded stores).`);
  else console.error(e);
  process.exit(1);
});
