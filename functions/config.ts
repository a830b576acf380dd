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
  /** `npm start`: the data stores in a child process (`process`) or in the service's own (`embedded`). */
  localStores: 'GLEANER_LOCAL_STORES',
  /** Local service: crawl slices on a worker thread of their own (`thread`) or on the main thread (`inline`). */
  localCrawl: 'GLEANER_LOCAL_CRAWL',
  chromiumPath: 'GLEANER_CHROMIUM_PATH',
  /** Local launcher: `auto` (a system Chromium, else the @sparticuz/chromium binary), `system` or `sparticuz` (the Lambda binary only). */
  chromiumBinary: 'GLEANER_CHROMIUM',
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
  /** Bedrock model of the `json` format (CDK context `extractionModelId`). */
  extractionModel: 'GLEANER_EXTRACTION_MODEL_ID',
  /** Any OpenAI-compatible chat completions endpoint (Ollama, vLLM, LM Studio): base URL with /v1. */
  llmBaseUrl: 'GLEANER_LLM_BASE_URL',
  llmApiKey: 'GLEANER_LLM_API_KEY',
  llmModel: 'GLEANER_LLM_MODEL',
  /** Tokens one extraction's input may take (the page is cut at block boundaries to fit). */
  modelInputTokens: 'GLEANER_MODEL_INPUT_TOKENS',
  modelOutputTokens: 'GLEANER_MODEL_OUTPUT_TOKENS',
  modelTimeoutMs: 'GLEANER_MODEL_TIMEOUT_MS',
  /** Local service: how long journaled audit records wait before their batch write to the table. */
  auditFlushMs: 'GLEANER_AUDIT_FLUSH_MS',
} as const;

/**
 * The header CloudFront adds to every origin request, carrying GLEANER_ORIGIN_SECRET (CDK sets
 * both from one generated secret). In aws mode the API pipeline answers 403 without it, so the
 * execute-api endpoint is useless to anyone who bypasses CloudFront (and its WAF).
 */
export const ORIGIN_VERIFY_HEADER = 'x-gleaner-origin-verify';

/** Crawl pages one tenant may have in flight at once (GLEANER_TENANT_CRAWL_PAGES), unless configured. */
export const DEFAULT_TENANT_CRAWL_PAGES = 20;

export const SOURCE_NAMES = ['x', 'reddit', 'linkedin', 'youtube', 'tiktok', 'instagram', 'facebook'] as const;
export type SourceName = (typeof SOURCE_NAMES)[number];

type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** The service's configuration, parsed from the environment (ENV names its variables). */
export interface Config {
  mode: 'local' | 'aws';
  env: string;
  /** 0 = ephemeral (tests). */
  port: number;
  dataDir: string;
  bootstrapKey?: string;
  egressAllow: string[];
  publicUrl?: string;
  table: string;
  resultsBucket: string;
  rawBucket: string;
  queueRuns?: string;
  queueQueries?: string;
  queueDeliveries?: string;
  queueJobs?: string;
  jobsQueueArn?: string;
  schedulerGroup: string;
  schedulerRoleArn?: string;
  kmsKeyId?: string;
  dynamoEndpoint?: string;
  s3Endpoint?: string;
  localStores: 'process' | 'embedded';
  localCrawl: 'thread' | 'inline';
  chromiumPath?: string;
  chromiumBinary: 'auto' | 'system' | 'sparticuz';
  userAgent: string;
  bedrockModel?: string;
  logLevel: LogLevel;
  /** A worker's own dead-letter queue (set by CDK on each worker function). */
  deadLetterQueue?: string;
  /** A failed retryable message waits base * 2^(receives - 1) seconds, at most max, before its next try. */
  retryBaseSeconds: number;
  /** SQS allows a visibility of at most 12 h. */
  retryMaxSeconds: number;
  /**
   * Messages of one queue processed at once by the local server (on AWS the event source
   * mappings' MaximumConcurrency bounds the same thing). A burst queues up behind these.
   */
  concurrencyRuns: number;
  concurrencyQueries: number;
  concurrencyDeliveries: number;
  concurrencyJobs: number;
  /** Crawl pages one tenant may have in flight (fair share with other tenants). */
  tenantCrawlPages: number;
  graphApiVersion: string;
  originSecret?: string;
  extractionModel?: string;
  llmBaseUrl?: string;
  llmApiKey?: string;
  llmModel?: string;
  modelInputTokens: number;
  modelOutputTokens: number;
  modelTimeoutMs: number;
  /** Unset: the audit sink's own default (25 ms). */
  auditFlushMs?: number;
  sourceBaseUrls: Partial<Record<SourceName, string>>;
  /** GLEANER_SEARCH_<PROVIDER>_BASE_URL: a search provider's API elsewhere (tests use local fakes). */
  searchBaseUrls: Partial<Record<SearchBaseUrlProvider, string>>;
}

/** Search providers whose API base URL the deployment may override (SearXNG's is the tenant's own). */
export const SEARCH_BASE_URL_PROVIDERS = ['brave', 'tavily', 'exa'] as const;
export type SearchBaseUrlProvider = (typeof SEARCH_BASE_URL_PROVIDERS)[number];

// Parsed by hand, not with a schema library: every Lambda function reads its configuration on its
// first request, and building and running a zod schema of 30 fields cost about 5 ms of each cold
// start (bench/cold-start.bench.ts). Each field is one reader; a bad value is an error naming it.
type Reader<T> = (raw: string | undefined) => T;
class Bad extends Error {}

const text = (def?: string, check?: { re: RegExp; msg: string } | { min: number; msg: string }): Reader<string | undefined> => (raw) => {
  if (raw === undefined) return def;
  if (check && 're' in check && !check.re.test(raw)) throw new Bad(check.msg);
  if (check && 'min' in check && raw.length < check.min) throw new Bad(check.msg);
  return raw;
};
const str = (def: string): Reader<string> => (raw) => raw ?? def;
/**
 * The model endpoint: an http(s) base URL without credentials in it (issue 27). A `user:pass@`
 * would travel in logs and error messages wherever the URL does; the key goes in
 * GLEANER_LLM_API_KEY. The message never repeats the value.
 */
const modelBaseUrl: Reader<string | undefined> = (raw) => {
  if (raw === undefined) return undefined;
  if (!/^https?:\/\/[^\s]+$/.test(raw) || !URL.canParse(raw)) throw new Bad('expected an http(s) base URL such as http://127.0.0.1:11434/v1');
  const u = new URL(raw);
  if (u.username || u.password || raw.slice(0, raw.indexOf('/', 8) >>> 0).includes('@'))
    throw new Bad('must not contain credentials (user:password@host); give the key in GLEANER_LLM_API_KEY instead');
  return raw;
};
const url: Reader<string | undefined> = (raw) => {
  if (raw === undefined) return undefined;
  if (!URL.canParse(raw)) throw new Bad(`expected a URL, got ${JSON.stringify(raw)}`);
  return raw;
};
const num = (min: number, max: number, def: number, int = true): Reader<number> => (raw) => {
  if (raw === undefined) return def;
  const n = Number(raw.trim());
  if (raw.trim() === '' || !Number.isFinite(n) || (int && !Number.isInteger(n))) throw new Bad(`expected ${int ? 'an integer' : 'a number'}, got ${JSON.stringify(raw)}`);
  if (n < min || n > max) throw new Bad(`expected a number from ${min} to ${max}, got ${n}`);
  return n;
};
const oneOf = <T extends string>(values: readonly T[], def: T): Reader<T> => (raw) => {
  if (raw === undefined) return def;
  if (!(values as readonly string[]).includes(raw)) throw new Bad(`expected one of ${values.join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
};
const HOST_PORT = /^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:]+\]:\d{1,5}$/;
const hostPorts: Reader<string[]> = (raw) => {
  const list = (raw ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const bad = list.find((x) => !HOST_PORT.test(x));
  if (bad !== undefined) throw new Bad(`expected host:port, got ${JSON.stringify(bad)}`);
  return list;
};
const opt = text();

const readers: { [K in keyof typeof ENV]: Reader<Config[K]> } = {
  mode: oneOf(['local', 'aws'] as const, 'local'),
  env: text('local', { min: 1, msg: 'must not be empty' }) as Reader<string>,
  port: num(0, 65533, 8787),
  dataDir: str('./.data'),
  bootstrapKey: text(undefined, { re: /^glr_[0-9A-Za-z]{28,}$/, msg: 'GLEANER_BOOTSTRAP_API_KEY must look like glr_ followed by 28+ base62 characters' }),
  egressAllow: hostPorts,
  publicUrl: url,
  table: str('gleaner'),
  resultsBucket: str('gleaner-results'),
  rawBucket: str('gleaner-raw'),
  queueRuns: opt,
  queueQueries: opt,
  queueDeliveries: opt,
  queueJobs: opt,
  jobsQueueArn: opt,
  schedulerGroup: str('gleaner'),
  schedulerRoleArn: opt,
  kmsKeyId: opt,
  dynamoEndpoint: url,
  s3Endpoint: url,
  localStores: oneOf(['process', 'embedded'] as const, 'process'),
  localCrawl: oneOf(['thread', 'inline'] as const, 'thread'),
  chromiumPath: opt,
  chromiumBinary: oneOf(['auto', 'system', 'sparticuz'] as const, 'auto'),
  userAgent: str('GleanerBot/0.1 (+https://github.com/gleaner; governed scraper; respects robots.txt)'),
  bedrockModel: opt,
  logLevel: oneOf(['debug', 'info', 'warn', 'error', 'silent'] as const, 'info'),
  deadLetterQueue: opt,
  retryBaseSeconds: num(0, 3600, 10, false),
  retryMaxSeconds: num(0, 43_200, 900, false),
  concurrencyRuns: num(1, 64, 2), // each may hold a Chromium
  concurrencyQueries: num(1, 64, 4),
  concurrencyDeliveries: num(1, 64, 8),
  concurrencyJobs: num(1, 64, 4),
  tenantCrawlPages: num(1, 10_000, DEFAULT_TENANT_CRAWL_PAGES),
  graphApiVersion: text(DEFAULT_GRAPH_API_VERSION, { re: /^v\d{1,3}\.\d{1,2}$/, msg: 'expected a Graph API version like v26.0' }) as Reader<string>,
  originSecret: text(undefined, { min: 16, msg: 'GLEANER_ORIGIN_SECRET must be at least 16 characters' }),
  extractionModel: text(undefined, { re: /^[\w.:/-]{1,2048}$/, msg: 'expected a Bedrock model id, inference profile id or ARN' }),
  llmBaseUrl: modelBaseUrl,
  llmApiKey: opt,
  llmModel: text(undefined, { min: 1, msg: 'must not be empty' }),
  modelInputTokens: num(500, 1_000_000, 16_000),
  modelOutputTokens: num(16, 65_536, 4096),
  modelTimeoutMs: num(1000, 600_000, 120_000),
  auditFlushMs: (raw) => (raw === undefined ? undefined : num(1, 600_000, 0)(raw)),
};

/** Local concurrency bound of one queue's worker. */
export const workerConcurrency = (c: Config, queue: 'runs' | 'queries' | 'deliveries' | 'jobs'): number =>
  ({ runs: c.concurrencyRuns, queries: c.concurrencyQueries, deliveries: c.concurrencyDeliveries, jobs: c.concurrencyJobs })[queue];

let cached: Config | undefined;

/** Parse the environment (once). Throws a readable error naming the bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const out: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const [k, name] of Object.entries(ENV) as [keyof typeof ENV, string][]) {
    const raw = env[name] === '' ? undefined : env[name];
    try {
      const v = readers[k](raw);
      if (v !== undefined) out[k] = v;
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      errors.push(`${name}: ${e.message}`);
    }
  }
  const sourceBaseUrls: Partial<Record<SourceName, string>> = {};
  for (const s of SOURCE_NAMES) {
    const name = `GLEANER_SOURCE_${s.toUpperCase()}_BASE_URL`;
    const v = env[name];
    if (!v) continue;
    if (URL.canParse(v)) sourceBaseUrls[s] = v;
    else errors.push(`${name}: expected a URL, got ${JSON.stringify(v)}`);
  }
  out.sourceBaseUrls = sourceBaseUrls;
  const searchBaseUrls: Partial<Record<SearchBaseUrlProvider, string>> = {};
  for (const s of SEARCH_BASE_URL_PROVIDERS) {
    const name = `GLEANER_SEARCH_${s.toUpperCase()}_BASE_URL`;
    const v = env[name];
    if (!v) continue;
    if (URL.canParse(v)) searchBaseUrls[s] = v;
    else errors.push(`${name}: expected a URL, got ${JSON.stringify(v)}`);
  }
  out.searchBaseUrls = searchBaseUrls;
  if (out.llmBaseUrl && !out.llmModel) errors.push(`${ENV.llmModel}: required with ${ENV.llmBaseUrl} (the model name the endpoint serves, e.g. llama3.1)`);
  if (errors.length) throw new Error(`Invalid configuration:\n  ${errors.join('\n  ')}`);
  return out as unknown as Config;
}

export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/** For tests and the local server, which set env before the first read. */
export function setConfig(c: Config | undefined): void {
  cached = c;
}
