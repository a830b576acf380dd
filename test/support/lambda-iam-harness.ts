import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { SQSEvent } from 'aws-lambda';
import { bundlingOptions, REPO_ROOT } from '../../lib/gleaner-function.js';
import { ENV, ORIGIN_VERIFY_HEADER } from '../../functions/config.js';

/** The origin secret the harness's functions run with (CloudFront's header carries it). */
const HARNESS_ORIGIN_SECRET = 'harness-origin-secret-0123456789';
import { routeById, routes, workers, type WorkerDef } from '../../functions/routes.js';
import { startEmbeddedStores, type EmbeddedStores } from '../../functions/local/embedded-stores.js';
import { DynamoTable } from '../../functions/adapters/aws/dynamo-table.js';
import { startAwsEmulator, emulatorCiphertext, type AwsEmulator, type SentMessage } from './aws-emulator.js';
import { SynthesizedApp, ACCOUNT, REGION, type FunctionRole } from './iam-template.js';
import { iamRequestsFor, type RecordedCall } from './iam-requests.js';
import { IamEvaluator, type Denial } from './iam-evaluator.js';
import { LambdaRunners } from './lambda-runners.js';

const QUEUE_ENV: Record<WorkerDef['id'], string> = { runs: ENV.queueRuns, queries: ENV.queueQueries, deliveries: ENV.queueDeliveries, jobs: ENV.queueJobs };

export interface Invocation<R> {
  result: R;
  calls: RecordedCall[];
  denials: Denial[];
  /** What the function logged (stdout before the result, and stderr). */
  logs: string;
}

export interface LambdaResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  /** The handler streamed its response (awslambda.streamifyResponse): metadata, then the body. */
  streamed?: boolean;
}

/**
 * Runs bundled handlers and workers the way Lambda does (a cold start of the bundle for each call,
 * aws mode, the function's own environment from the synthesized template: lambda-runner.mjs)
 * against dynalite, s3rver and the loopback AWS emulator, records every SDK command each sends,
 * and judges each against that function's role in the synthesized template.
 */
export class LambdaIamHarness {
  readonly iam: IamEvaluator;
  private readonly bundles = new Map<string, string>();
  private readonly runner: LambdaRunners;

  private constructor(
    readonly app: SynthesizedApp,
    readonly stores: EmbeddedStores,
    readonly table: DynamoTable,
    readonly emulator: AwsEmulator,
    readonly names: { table: string; results: string; raw: string },
    private readonly dir: string,
    private readonly extraEnv: Record<string, string>,
  ) {
    this.iam = new IamEvaluator((arn) => app.resourcePolicy(arn));
    this.runner = new LambdaRunners(dir);
  }

  static async start(extraEnv: Record<string, string> = {}): Promise<LambdaIamHarness> {
    const app = SynthesizedApp.synth();
    // The names CDK wires into every function: the local stores are created under them, so the
    // functions run with their synthesized environment unchanged.
    const env = app.functionRole({ workerId: 'jobs' }).environment;
    const names = { table: env[ENV.table]!, results: env[ENV.resultsBucket]!, raw: env[ENV.rawBucket]! };
    const stores = await startEmbeddedStores({ dynamoPort: 0, s3Port: 0, table: names.table, buckets: [names.results, names.raw] });
    const emulator = await startAwsEmulator();
    const dir = mkdtempSync(join(REPO_ROOT, '.tmp-lambda-iam-'));
    return new LambdaIamHarness(app, stores, new DynamoTable(names.table, stores.dynamo), emulator, names, dir, extraEnv);
  }

  async close(): Promise<void> {
    await this.runner.close();
    await this.stores.close();
    await this.emulator.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The queue URL a function is told for `id`, pointed at the emulator (same account and name). */
  queueUrl(role: FunctionRole, id: WorkerDef['id']): string {
    const u = new URL(role.environment[QUEUE_ENV[id]]!);
    return `${this.emulator.endpoint}${u.pathname}`;
  }

  /** Messages sent to a queue so far (removed from it). */
  take(id: WorkerDef['id']): SentMessage[] {
    return this.emulator.take(this.queueUrl(this.app.functionRole({ workerId: id }), id));
  }

  private async bundle(handler: string): Promise<string> {
    const done = this.bundles.get(handler);
    if (done) return done;
    const out = join(this.dir, `${handler.split('/').pop()!.replace('.ts', '')}.mjs`);
    // As CDK bundles it: a `validators` route leaves re2js and cheerio to run time (installed beside
    // the bundle on AWS; here the repository's node_modules, above the bundle's directory).
    const opts = bundlingOptions({ validators: routes.find((r) => r.handler === handler)?.validators });
    await build({
      entryPoints: [join(REPO_ROOT, handler)], outfile: out, bundle: true, platform: 'node', format: 'esm', target: opts.target,
      banner: { js: opts.banner! }, external: [...(opts.externalModules ?? []), ...(opts.nodeModules ?? [])], minify: true, logLevel: 'silent',
    });
    this.bundles.set(handler, out);
    return out;
  }

  private async run<R>(label: string, handler: string, role: FunctionRole, event: unknown): Promise<Invocation<R>> {
    const bundle = await this.bundle(handler);
    const id = `${label.replace(/[^A-Za-z0-9]+/g, '-')}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
    const record = join(this.dir, `${id}.calls.jsonl`);
    const eventFile = join(this.dir, `${id}.event.json`);
    writeFileSync(eventFile, JSON.stringify(event));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      ...role.environment,
      NODE_OPTIONS: '',
      [ENV.dynamoEndpoint]: this.stores.dynamoEndpoint,
      [ENV.s3Endpoint]: this.stores.s3Endpoint,
      [ENV.logLevel]: 'error',
      // Every other service (KMS, Scheduler, Bedrock) answers from the loopback emulator; SQS
      // clients send to the QueueUrl's host, which is rewritten below.
      AWS_ENDPOINT_URL: this.emulator.endpoint,
      // s3rver's fixed credentials; dynalite and the emulator accept any.
      AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      GLEANER_TEST_AWS_RECORD: record,
      // CloudFront's origin secret is a Secrets Manager dynamic reference in the template; the
      // harness plays CloudFront with a known value (route() sends the matching header).
      [ENV.originSecret]: HARNESS_ORIGIN_SECRET,
      // The public URL is CloudFront's domain, a cross-stack reference the template reader can
      // only fake: give the functions a real-looking one.
      ...(role.environment[ENV.publicUrl] !== undefined ? { [ENV.publicUrl]: 'https://d111111abcdef8.cloudfront.net' } : {}),
      ...this.extraEnv,
    };
    for (const [q, name] of Object.entries(QUEUE_ENV) as [WorkerDef['id'], string][]) if (role.environment[name]) env[name] = this.queueUrl(role, q);
    const { result, logs } = await this.runner.invoke<R>(bundle, eventFile, env);
    const calls = existsSync(record)
      ? readFileSync(record, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedCall)
      : [];
    const keyOf = (b64: string) => emulatorCiphertext.keyOf(Buffer.from(b64, 'base64'));
    const denials = await this.iam.check(label, role, calls.flatMap((c) => iamRequestsFor(c, keyOf)));
    return { result, calls, denials, logs };
  }

  /** Invokes a route's bundled handler with an API Gateway v2 event. */
  async route(routeId: string, req: { path: string; key?: string; body?: unknown; query?: string; headers?: Record<string, string> }): Promise<Invocation<LambdaResponse>> {
    const r = routeById(routeId);
    const role = this.app.functionRole({ routeId: r.id, method: r.method, path: r.path });
    const headers: Record<string, string> = { host: 'api.example.com', [ORIGIN_VERIFY_HEADER]: HARNESS_ORIGIN_SECRET, ...(req.key ? { authorization: `Bearer ${req.key}` } : {}), ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}), ...req.headers };
    const routeKey = `${r.method} ${r.path}`;
    const names = [...r.path.matchAll(/\{([^}+]+)\+?\}/g)].map((m) => m[1]!);
    const values = new RegExp(`^${r.path.replace(/\{[^}]+\+\}/g, '(.+)').replace(/\{[^}]+\}/g, '([^/]+)')}$`).exec(req.path)?.slice(1) ?? [];
    const pathParameters = names.length ? Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(values[i] ?? '')])) : undefined;
    if (r.stream) {
      // Streamed routes are served by the REST API (lib/stream-api.ts): its proxy payload (v1).
      const query = req.query ? new URLSearchParams(req.query) : undefined;
      const rest = {
        resource: r.path, path: req.path, httpMethod: r.method, headers, multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]])),
        queryStringParameters: query ? Object.fromEntries(query) : null,
        multiValueQueryStringParameters: query ? Object.fromEntries([...new Set(query.keys())].map((k) => [k, query.getAll(k)])) : null,
        pathParameters: pathParameters ?? null, stageVariables: null,
        requestContext: { accountId: ACCOUNT, apiId: 'x', domainName: 'api.example.com', domainPrefix: 'api', httpMethod: r.method, path: `/api${req.path}`, protocol: 'HTTP/1.1', requestId: 'r', requestTimeEpoch: Date.now(), resourcePath: r.path, stage: 'api', identity: { sourceIp: '203.0.113.7', userAgent: 'test' } },
        body: req.body === undefined ? null : JSON.stringify(req.body), isBase64Encoded: false,
      };
      return this.run<LambdaResponse>(r.id, r.handler, role, rest);
    }
    const event = {
      version: '2.0', routeKey, rawPath: req.path, rawQueryString: req.query ?? '', headers,
      pathParameters, queryStringParameters: req.query ? Object.fromEntries(new URLSearchParams(req.query)) : undefined,
      requestContext: { accountId: ACCOUNT, apiId: 'x', domainName: 'api.example.com', domainPrefix: 'api', http: { method: r.method, path: req.path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'test' }, requestId: 'r', routeKey, stage: '$default', time: '', timeEpoch: Date.now() },
      body: req.body === undefined ? undefined : JSON.stringify(req.body), isBase64Encoded: false,
    };
    return this.run<LambdaResponse>(r.id, r.handler, role, event);
  }

  /** Invokes a worker's bundled handler with an SQS event of `messages` (what producers sent). */
  async worker(id: WorkerDef['id'], messages: SentMessage[] | unknown[]): Promise<Invocation<{ batchItemFailures: { itemIdentifier: string }[] }>> {
    const w = workers.find((x) => x.id === id)!;
    const role = this.app.functionRole({ workerId: id });
    const now = String(Date.now());
    const event: SQSEvent = {
      Records: messages.map((m, i) => {
        const sent = m as Partial<SentMessage>;
        const body = typeof sent.body === 'string' && sent.messageId ? sent.body : JSON.stringify(m);
        const messageId = sent.messageId ?? `direct-${i}`;
        return {
          messageId, receiptHandle: `rh-${messageId}`, body, md5OfBody: '', messageAttributes: {},
          attributes: { ApproximateReceiveCount: '1', SentTimestamp: now, SenderId: 'test', ApproximateFirstReceiveTimestamp: now },
          eventSource: 'aws:sqs', eventSourceARN: `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`, awsRegion: REGION,
        };
      }),
    };
    return this.run(`${id} worker`, w.handler, role, event);
  }
}
