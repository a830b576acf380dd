import * as z from 'zod';
import { DEFAULT_GRAPH_API_VERSION } from './core/sources/graph-versions.js';

/**
 * The one config module. Env names are shared by CDK (which sets them, see ENV) and the
 * runtime (which reads them here, once). Nobody else reads process.env.
 */
export const ENV = {
  mode: 'GLEANER_MODE',
  env: 'GLEANER_ENV',
  port: 'PORT',
  dataDir: 'GLEANER_DATA_DIR',
  bootstrapKey: 'GLEANER_BOOTSTRAP_API_KEY',
  egressAllow: 'GLEANER_EGRESS_ALLOW',
  publicUrl: 'GLEANER_PUBLIC_URL',
  table: 'GLEANER_TABLE',
  resultsBucket: 'GLEANER_RESULTS_BUCKET',
  rawBucket: 'GLEANER_RAW_BUCKET',
  queueRuns: 'GLEANER_QUEUE_RUNS_URL',
  queueQueries: 'GLEANER_QUEUE_QUERIES_URL',
  queueDeliveries: 'GLEANER_QUEUE_DELIVERIES_URL',
  queueJobs: 'GLEANER_QUEUE_JOBS_URL',
  jobsQueueArn: 'GLEANER_JOBS_QUEUE_ARN',
  schedulerGroup: 'GLEANER_SCHEDULER_GROUP',
  schedulerRoleArn: 'GLEANER_SCHEDULER_ROLE_ARN',
  kmsKeyId: 'GLEANER_KMS_KEY_ID',
  dynamoEndpoint: 'GLEANER_DYNAMODB_ENDPOINT',
  s3Endpoint: 'GLEANER_S3_ENDPOINT',
  chromiumPath: 'GLEANER_CHROMIUM_PATH',
  userAgent: 'GLEANER_USER_AGENT',
  bedrockModel: 'GLEANER_BEDROCK_MODEL_ID',
  logLevel: 'GLEANER_LOG_LEVEL',
  deadLetterQueue: 'GLEANER_DLQ_URL',
  retryBaseSeconds: 'GLEANER_RETRY_BASE_SECONDS',
  retryMaxSeconds: 'GLEANER_RETRY_MAX_SECONDS',
  concurrencyRuns: 'GLEANER_CONCURRENCY_RUNS',
  concurrencyQueries: 'GLEANER_CONCURRENCY_QUERIES',
  concurrencyDeliveries: 'GLEANER_CONCURRENCY_DELIVERIES',
  concurrencyJobs: 'GLEANER_CONCURRENCY_JOBS',
  tenantCrawlPages: 'GLEANER_TENANT_CRAWL_PAGES',
  /** Meta Graph API version of the Facebook and Instagram connectors (CDK context `graphApiVersion`). */
  graphApiVersion: 'GLEANER_GRAPH_API_VERSION',
  originSecret: 'GLEANER_ORIGIN_SECRET',
} as const;

/**
 * The header CloudFront adds to every origin request, carrying GLEANER_ORIGIN_SECRET (CDK sets
 * both from one generated secret). In aws mode the API pipeline answers 403 without it, so the
 * execute-api endpoint is useless to anyone who bypasses CloudFront (and its WAF).
 */
export const ORIGIN_VERIFY_HEADER = 'x-gleaner-origin-verify';

export const SOURCE_NAMES = ['x', 'reddit', 'linkedin', 'youtube', 'tiktok', 'instagram', 'facebook'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

const hostPort = z.string().regex(/^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/, 'expected host:port');

const schema = z.object({
  mode: z.enum(['local', 'aws']).default('local'),
  env: z.string().min(1).default('local'),
  port: z.coerce.number().int().min(0).max(65533).default(8787), // 0 = ephemeral (tests)
  dataDir: z.string().min(1).default('./.data'),
  bootstrapKey: z
    .string()
    .regex(/^glr_[0-9A-Za-z]{28,}$/, 'GLEANER_BOOTSTRAP_API_KEY must look like glr_ followed by 28+ base62 characters')
    .optional(),
  egressAllow: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(hostPort)),
  publicUrl: z.string().url().optional(),
  table: z.string().default('gleaner'),
  resultsBucket: z.string().default('gleaner-results'),
  rawBucket: z.string().default('gleaner-raw'),
  queueRuns: z.string().optional(),
  queueQueries: z.string().optional(),
  queueDeliveries: z.string().optional(),
  queueJobs: z.string().optional(),
  jobsQueueArn: z.string().optional(),
  schedulerGroup: z.string().default('gleaner'),
  schedulerRoleArn: z.string().optional(),
  kmsKeyId: z.string().optional(),
  dynamoEndpoint: z.string().url().optional(),
  s3Endpoint: z.string().url().optional(),
  chromiumPath: z.string().optional(),
  userAgent: z.string().default('GleanerBot/0.1 (+https://github.com/gleaner; governed scraper; respects robots.txt)'),
  bedrockModel: z.string().optional(),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** A worker's own dead-letter queue (set by CDK on each worker function). */
  deadLetterQueue: z.string().optional(),
  /** A failed retryable message waits base * 2^(receives - 1) seconds, at most max, before its next try. */
  retryBaseSeconds: z.coerce.number().min(0).max(3600).default(10),
  retryMaxSeconds: z.coerce.number().min(0).max(43_200).default(900), // SQS allows a visibility of at most 12 h
  /**
   * Messages of one queue processed at once by the local server (on AWS the event source
   * mappings' MaximumConcurrency bounds the same thing). A burst queues up behind these.
   */
  concurrencyRuns: z.coerce.number().int().min(1).max(64).default(2), // each may hold a Chromium
  concurrencyQueries: z.coerce.number().int().min(1).max(64).default(4),
  concurrencyDeliveries: z.coerce.number().int().min(1).max(64).default(8),
  concurrencyJobs: z.coerce.number().int().min(1).max(64).default(4),
  // Crawl pages one tenant may have in flight in the local queue (fair share with other tenants).
  tenantCrawlPages: z.coerce.number().int().min(1).max(10_000).default(20),
  graphApiVersion: z
    .string()
    .regex(/^v\d{1,3}\.\d{1,2}$/, 'expected a Graph API version like v26.0')
    .default(DEFAULT_GRAPH_API_VERSION),
  originSecret: z.string().min(16, 'GLEANER_ORIGIN_SECRET must be at least 16 characters').optional(),
  sourceBaseUrls: z.record(z.string(), z.string().url()),
});

export type Config = z.infer<typeof schema>;

/** Local concurrency bound of one queue's worker. */
export const workerConcurrency = (c: Config, queue: 'runs' | 'queries' | 'deliveries' | 'jobs'): number =>
  ({ runs: c.concurrencyRuns, queries: c.concurrencyQueries, deliveries: c.concurrencyDeliveries, jobs: c.concurrencyJobs })[queue];

let cached: Config | undefined;

/** Parse the environment (once). Throws a readable error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const raw: Record<string, unknown> = {};
  for (const [k, name] of Object.entries(ENV)) if (env[name] !== undefined && env[name] !== '') raw[k] = env[name];
  const sourceBaseUrls: Record<string, string> = {};
  for (const s of SOURCE_NAMES) {
    const v = env[`GLEANER_SOURCE_${s.toUpperCase()}_BASE_URL`];
    if (v) sourceBaseUrls[s] = v;
  }
  raw.sourceBaseUrls = sourceBaseUrls;
  // Parsed once per process: zod's compiled fast path (generated with new Function on an object
  // schema's first parse) would cost more to build than this one parse, at every cold start.
  const parsed = schema.safeParse(raw, { jitless: true });
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? '');
      const name = (ENV as Record<string, string>)[key] ?? key;
      return `${name}: ${i.message}`;
    });
    throw new Error(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  return parsed.data;
}

export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** For tests and the local server, which set env before the first read. */
export function setConfig(c: Config | undefined): void {
  cached = c;
}
