import { resolve, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createServer, type AddressInfo } from 'node:net';
import { Hono, type Context as HonoContext } from 'hono';
import { serve, type ServerType } from '@hono/node-server';
import type { Context as LambdaContext } from 'aws-lambda';
import { routes, workers, type Route } from '../routes.js';
import { setConfig, workerConcurrency, type Config } from '../config.js';
import { setDeps, type Deps } from '../runtime.js';
import { LocalQueue } from '../adapters/local/local-queue.js';
import { auditJournalDir, localDeps } from './local-deps.js';
import { replayAuditJournals } from '../adapters/local/audit-journal.js';
import { CrawlThread } from './crawl-thread.js';
import { bootstrap } from '../core/tenancy/bootstrap.js';
import { log, setLogLevel } from '../core/log.js';
import { AppError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { sweepRawLogs } from '../core/runs/raw-log.js';
import { requestShutdown } from '../core/runs/shutdown.js';
import { closeAllBrowsers } from '../adapters/browser/chromium-profile.js';
import { closeCrawlGuards } from '../workers/run-guards.js';
import { connectStores, startEmbeddedStores, type EmbeddedStores } from './embedded-stores.js';
import { toApiGatewayEvent, fromApiGatewayResult, toHonoPath } from './api-gateway-event.js';
import type { Worker } from '../workers/worker-kit.js';
import { Readable } from 'node:stream';
import { LocalResponseStream } from '../adapters/local/local-response-stream.js';
import type { StreamingApiHandler } from '../http/pipeline/streaming.js';
import { configureBudgetPool } from '../core/limits/budget-pool.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type LambdaHandler = (event: unknown, context: LambdaContext) => Promise<unknown>;

export interface LocalService {
  url: string;
  port: number;
  deps: Deps;
  queue: LocalQueue;
  stores: EmbeddedStores;
  bootstrapKey?: string;
  tenantId: string;
  /** The thread crawl slices run on (GLEANER_LOCAL_CRAWL=thread, the default). */
  crawlThread?: CrawlThread;
  close(): Promise<void>;
}

const fakeContext = (name: string): LambdaContext =>
  ({
    functionName: name, functionVersion: '$LATEST', invokedFunctionArn: `arn:local:${name}`, memoryLimitInMB: '512',
    awsRequestId: crypto.randomUUID(), logGroupName: 'local', logStreamName: 'local', callbackWaitsForEmptyEventLoop: false,
    getRemainingTimeInMillis: () => 29_000, done() {}, fail() {}, succeed() {},
  }) as LambdaContext;

/** Load each route's handler module once (lazily) and serve it through Hono. */
export interface AppOptions {
  /** Sees every request and its response (a clone) before it is sent: the tests' contract check. */
  observe?: (req: Request, res: Response) => Promise<void> | void;
}

export function buildApp(routeTable: Route[] = routes, opts: AppOptions = {}): Hono {
  const app = new Hono();
  const loaded = new Map<string, Promise<LambdaHandler>>();
  const load = (r: Route) => {
    let p = loaded.get(r.handler);
    if (!p) {
      p = import(pathToFileURL(join(ROOT, r.handler)).href).then((m) => m.handler as LambdaHandler);
      loaded.set(r.handler, p);
    }
    return p;
  };
  const serveRoute = (r: Route) => async (c: HonoContext) => {
    const handler = await load(r);
    const ip = (c.env as { incoming?: { socket?: { remoteAddress?: string } } })?.incoming?.socket?.remoteAddress ?? '127.0.0.1';
    let event;
    try {
      event = await toApiGatewayEvent(c.req.raw, r, c.req.param() as Record<string, string>, ip.replace(/^::ffff:/, ''));
    } catch (err) {
      // An oversize body is refused here, before it is buffered (API Gateway's own limit on AWS);
      // the connection is closed so the rest of the upload is not read.
      if (err instanceof AppError) {
        const requestId = newId('req');
        const refused = c.json({ code: err.code, message: err.message, request_id: requestId }, err.status as 413, { connection: 'close', 'x-request-id': requestId });
        if (opts.observe) await opts.observe(c.req.raw, refused.clone());
        return refused;
      }
      throw err;
    }
    if (r.stream) return streamResponse(handler as unknown as StreamingApiHandler, event, r, c.req.raw, opts.observe);
    const res = fromApiGatewayResult((await handler(event, fakeContext(r.id))) as never);
    if (opts.observe) await opts.observe(c.req.raw, res.clone());
    return res;
  };
  for (const r of routeTable) {
    const methods = r.method === 'ANY' ? ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] : [r.method];
    app.on(methods, toHonoPath(r.path), serveRoute(r));
  }
  // What the greedy catch-all cannot match (the bare `/` with another method than GET) goes to
  // the same fallback handler as on AWS: 405 with Allow, or 404.
  const fallback = routeTable.find((r) => r.method === 'ANY');
  app.notFound(async (c) =>
    fallback ? serveRoute(fallback)(c) : c.json({ code: 'not_found', message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}`, request_id: newId('req') }, 404),
  );
  app.onError((err, c) => {
    const requestId = newId('req');
    log.error('local server error', { err, request_id: requestId });
    return c.json({ code: 'internal_error', message: `An unexpected error occurred; quote request id ${requestId} when reporting it`, request_id: requestId }, 500);
  });
  return app;
}

/**
 * A streamed route (`stream: true`), the way Lambda response streaming serves it: the handler
 * writes to a response stream; its status and headers answer the request as soon as they are
 * given, and the body follows chunk by chunk (chunked transfer encoding), with backpressure
 * from the client's socket. The observer sees the status, headers and first chunk only, so it
 * never holds an export whole.
 */
async function streamResponse(handler: StreamingApiHandler, event: unknown, r: Route, req: Request, observe: AppOptions['observe']): Promise<Response> {
  if (!handler.streaming) throw new Error(`${r.handler} is marked stream: true but does not export a streaming handler`);
  const out = new LocalResponseStream();
  const done = handler(event as never, out, fakeContext(r.id));
  // A failure before the status was given is the server's 500 (app.onError); after it, the body breaks off.
  const started = await Promise.race([out.prelude.then((p) => ({ p })), done.then(() => out.prelude.then((p) => ({ p })), (err: unknown) => ({ err }))]);
  if ('err' in started) throw started.err;
  done.catch((err: unknown) => out.destroy(err as Error));
  const { statusCode, headers: given, cookies } = started.p;
  const headers = new Headers(given);
  for (const ck of cookies ?? []) headers.append('set-cookie', ck);
  // HEAD (Hono answers it with the GET route, dropping the body) and bodiless statuses: end the reader now.
  if (statusCode === 204 || statusCode === 304 || req.method === 'HEAD') {
    out.destroy();
    const empty = new Response(null, { status: statusCode, headers });
    if (observe) await observe(req, empty.clone());
    return empty;
  }
  const reader = (Readable.toWeb(out) as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  if (observe) await observe(req, new Response(first.done ? null : Buffer.from(first.value), { status: statusCode, headers }));
  const body = new ReadableStream<Uint8Array>({
    start(ctrl) {
      if (first.done) ctrl.close();
      else ctrl.enqueue(first.value);
    },
    async pull(ctrl) {
      const next = await reader.read();
      if (next.done) ctrl.close();
      else ctrl.enqueue(next.value);
    },
    cancel: (reason) => reader.cancel(reason),
  }, { highWaterMark: 0 });
  return new Response(body, { status: statusCode, headers });
}

/**
 * Errors Node raises before a request reaches Hono (headers over 16 KB, malformed request lines)
 * are answered in the API's JSON error shape instead of Node's plain-text default.
 */
function answerClientError(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const [status, reason, code, message] = tooLarge
    ? [431, 'Request Header Fields Too Large', 'headers_too_large', 'The request headers are larger than 16 KB']
    : [400, 'Bad Request', 'invalid_request', 'The request is not valid HTTP'];
  const body = JSON.stringify({ code, message, request_id: newId('req') });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
}

/** A port `npm start` needs is taken: one line naming the port, what uses it and the variable to change. */
export class PortInUseError extends Error {
  readonly code = 'EADDRINUSE';
  constructor(readonly port: number, readonly use: string) {
    super(`Port ${port} (${use}) is already in use on 127.0.0.1. Set PORT to a value whose next two ports are free too, e.g. PORT=${port + 10} npm start.`);
    this.name = 'PortInUseError';
  }
}

/** Whether nothing listens on 127.0.0.1:port (a listen-and-close probe). */
export const portFree = (port: number) =>
  new Promise<boolean>((res) => {
    const probe = createServer();
    probe.once('error', () => res(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => res(true)));
  });

/**
 * Every fixed port the local service will listen on, checked before anything starts: PORT (API
 * and console), PORT+1 (embedded DynamoDB) and PORT+2 (embedded S3) unless external stores are
 * configured. The first taken one throws a PortInUseError, instead of an EADDRINUSE stack from
 * whichever server happened to start last.
 */
export async function checkPorts(cfg: Pick<Config, 'port' | 'dynamoEndpoint' | 's3Endpoint'>): Promise<void> {
  if (cfg.port === 0) return;
  const external = !!(cfg.dynamoEndpoint && cfg.s3Endpoint);
  const wanted: Array<[number, string]> = [[cfg.port, 'PORT, the API and console']];
  if (!external) wanted.push([cfg.port + 1, 'PORT+1, the embedded DynamoDB'], [cfg.port + 2, 'PORT+2, the embedded S3']);
  for (const [port, use] of wanted) if (!(await portFree(port))) throw new PortInUseError(port, use);
}

/**
 * Everything in one process: embedded dynalite and s3rver (or the stores at GLEANER_DYNAMODB_ENDPOINT
 * and GLEANER_S3_ENDPOINT when both are set), the in-process queue and scheduler, the workers, and
 * every route in the table over HTTP.
 */
export async function startLocal(cfg: Config, opts: { quiet?: boolean } & AppOptions = {}): Promise<LocalService> {
  setConfig(cfg);
  setLogLevel(cfg.logLevel);
  // Every tenant's requests are served by this process: one tenant's budgeted work (selectors,
  // schemas, PDFs) may not hold every budget thread.
  configureBudgetPool({ shared: true });
  await checkPorts(cfg);
  const ephemeral = cfg.port === 0;
  const buckets = [cfg.resultsBucket, cfg.rawBucket];
  const stores =
    cfg.dynamoEndpoint && cfg.s3Endpoint
      ? await connectStores({ dynamoEndpoint: cfg.dynamoEndpoint, s3Endpoint: cfg.s3Endpoint, table: cfg.table, buckets })
      : await startEmbeddedStores({ dataDir: cfg.dataDir, dynamoPort: ephemeral ? 0 : cfg.port + 1, s3Port: ephemeral ? 0 : cfg.port + 2, table: cfg.table, buckets });
  const deps = localDeps(cfg, stores, (t) => new LocalQueue(t));
  const { table, queue, scheduler } = deps;
  setDeps(deps);
  // Audit records an earlier run journaled but did not get into the table (a crash, kill -9).
  const replayed = await replayAuditJournals(auditJournalDir(cfg), table);
  if (replayed.records && !opts.quiet) log.info('audit records replayed from the journal', replayed);
  let crawlThread: CrawlThread | undefined;

  for (const w of workers) {
    const mod = (await import(pathToFileURL(join(ROOT, w.handler)).href)) as { worker?: Worker };
    if (!mod.worker) throw new Error(`${w.handler} does not export worker`);
    // Crawl slices on a thread of their own (crawl-thread.ts), so a crawl does not slow the API.
    if (w.id === 'runs' && cfg.localCrawl === 'thread') crawlThread = new CrawlThread({ config: cfg, dynamoEndpoint: stores.dynamoEndpoint, s3Endpoint: stores.s3Endpoint }, queue, mod.worker);
    const sliceWorker = w.id === 'runs' ? crawlThread : undefined;
    // The worker's own interpreter, as its Lambda runs it; concurrency bounded per queue from config.
    queue.consume(w.id, mod.worker, { maxReceiveCount: w.maxReceiveCount, batchSize: w.batchSize, timeoutSeconds: w.timeoutSeconds, concurrency: workerConcurrency(cfg, w.id), tenantCrawlPages: cfg.tenantCrawlPages, sliceWorker });
  }
  const recovered = await queue.recover();
  await scheduler.start();
  const boot = await bootstrap(table, new Date(), cfg.bootstrapKey);

  // The local stand-in for S3 lifecycle rules and DynamoDB TTL: raw scrape logs older than 90
  // days are deleted, and (via the jobs worker) result files past a tenant's retention policy.
  const sweep = async () => {
    const removed = await sweepRawLogs(table, deps.blobs, new Date()).catch((err) => (log.error('raw log sweep failed', { err }), 0));
    if (removed) log.info('raw logs past retention deleted', { removed });
    await queue.send('jobs', { kind: 'storage.sweep' }).catch((err) => log.error('retention sweep enqueue failed', { err }));
  };
  const sweeper = setInterval(() => void sweep(), 6 * 3600_000);
  sweeper.unref();
  void sweep();

  const app = buildApp(routes, { observe: opts.observe });
  const server: ServerType = await new Promise((res) => {
    const s = serve({ fetch: app.fetch, port: cfg.port, hostname: '127.0.0.1' }, () => res(s));
    s.on('clientError', answerClientError);
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  // Absolute links (result_url) need the real origin when the port was chosen by the OS.
  if (!cfg.publicUrl && ephemeral) deps.config.publicUrl = url;
  if (!opts.quiet && recovered) log.info('re-enqueued unfinished work', { messages: recovered });
  return {
    url, port, deps, queue, stores, bootstrapKey: boot.apiKey, tenantId: boot.tenant.tenant_id, crawlThread,
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      clearInterval(sweeper);
      scheduler.stop();
      queue.stop();
      // Runs and tasks in progress stop (their messages stay for the next start) and every
      // browser this process launched is closed, its process awaited and its profile dir removed.
      requestShutdown();
      crawlThread?.shutdown();
      // Let the messages in progress wind down (they see the shutdown and hand their work back)
      // before the stores close under them; bounded, as a stuck one stays for the next start.
      await Promise.race([queue.settled(), new Promise((r) => setTimeout(r, 15_000).unref())]);
      await crawlThread?.close();
      await closeAllBrowsers();
      await closeCrawlGuards();
      await deps.audit.flush();
      deps.audit.close?.();
      await stores.close();
      setDeps(undefined);
    },
  };
}
