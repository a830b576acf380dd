import * as z from 'zod';

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
} as const;

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
  sourceBaseUrls: z.record(z.string(), z.string().url()),
});

export type Config = z.infer<typeof schema>;

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
  const parsed = schema.safeParse(raw);
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
