import type { App } from 'aws-cdk-lib';
import type { QueueId } from './runtime-wiring.js';

/**
 * Every `-c key=value` the app reads, with what it does. bin/app.ts reads only these, and the
 * README test checks that every `-c` in the README's deploy section is one of them.
 */
export const CONTEXT_KEYS = {
  stage: "deployment stage, part of every stack name (default 'dev')",
  publicUrl: 'your own https origin in front of the API; needs certificateArn',
  certificateArn: 'ACM certificate (us-east-1) covering the publicUrl host, attached to CloudFront',
  alarmEmail: 'address subscribed to the alarm topic',
  waf: "'true' attaches a new CloudFront WAF web ACL (stage must deploy to us-east-1)",
  webAclArn: 'attach an existing CloudFront (global, us-east-1) WAF web ACL instead',
  wafRateLimit: 'requests per 5 minutes per client address before the WAF blocks (default 2000)',
  bedrockModelId: 'plan queries with this Amazon Bedrock model',
  extractionModelId: 'extract structured data (the json format) with this Amazon Bedrock model or inference profile',
  throttleRate: 'API stage steady-state requests per second (with throttleBurst)',
  throttleBurst: 'API stage burst (with throttleRate)',
  runsConcurrency: 'most concurrent runs-worker invocations (Chromium; default 5)',
  queriesConcurrency: 'most concurrent queries-worker invocations (default 5)',
  deliveriesConcurrency: 'most concurrent deliveries-worker invocations (default 10)',
  jobsConcurrency: 'most concurrent jobs-worker invocations (default 5)',
} as const;
export type ContextKey = keyof typeof CONTEXT_KEYS;

/**
 * Default SQS event source `MaximumConcurrency` per worker. The runs worker starts a 2 GB
 * Chromium per invocation, so a burst of runs must queue, not fan out to hundreds of browsers.
 */
export const DEFAULT_MAX_CONCURRENCY: Record<QueueId, number> = { runs: 5, queries: 5, deliveries: 10, jobs: 5 };
/** Lambda's bounds for an SQS event source's MaximumConcurrency. */
export const MAX_CONCURRENCY_RANGE = { min: 2, max: 1000 } as const;
export const DEFAULT_WAF_RATE_LIMIT = 2000;

export interface DeployOptions {
  stage: string;
  publicUrl?: string;
  certificateArn?: string;
  alarmEmail?: string;
  waf?: { create: true; rateLimit: number } | { webAclArn: string };
  bedrockModelId?: string;
  extractionModelId?: string;
  throttle?: { rateLimit: number; burstLimit: number };
  maxConcurrency: Record<QueueId, number>;
}

export class ContextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextError';
  }
}

const int = (key: string, v: string, min: number, max: number): number => {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < min || n > max) throw new ContextError(`-c ${key}=${v}: expected a whole number from ${min} to ${max}`);
  return n;
};

/**
 * Reads and validates the app's context. Throws a ContextError naming the bad `-c` option, so
 * `cdk synth` fails with a clear message instead of deploying something that cannot work.
 */
export function readDeployOptions(get: (key: ContextKey) => unknown): DeployOptions {
  const ctx = (key: ContextKey): string | undefined => {
    const v = get(key);
    return v === undefined || v === null || v === '' ? undefined : String(v);
  };
  const rate = ctx('throttleRate');
  const burst = ctx('throttleBurst');
  if ((rate === undefined) !== (burst === undefined)) throw new ContextError('-c throttleRate and -c throttleBurst go together: give both or neither');

  const maxConcurrency = { ...DEFAULT_MAX_CONCURRENCY };
  for (const id of Object.keys(maxConcurrency) as QueueId[]) {
    const v = ctx(`${id}Concurrency`);
    if (v !== undefined) maxConcurrency[id] = int(`${id}Concurrency`, v, MAX_CONCURRENCY_RANGE.min, MAX_CONCURRENCY_RANGE.max);
  }

  const wafFlag = ctx('waf');
  if (wafFlag !== undefined && wafFlag !== 'true' && wafFlag !== 'false') throw new ContextError(`-c waf=${wafFlag}: expected true or false`);
  const webAclArn = ctx('webAclArn');
  if (wafFlag === 'true' && webAclArn) throw new ContextError('-c waf=true creates a web ACL; -c webAclArn attaches an existing one: give one of them');
  const rateLimit = ctx('wafRateLimit');
  if (rateLimit !== undefined && wafFlag !== 'true') throw new ContextError('-c wafRateLimit only applies with -c waf=true');
  let waf: DeployOptions['waf'];
  if (wafFlag === 'true') waf = { create: true, rateLimit: rateLimit ? int('wafRateLimit', rateLimit, 10, 2_000_000_000) : DEFAULT_WAF_RATE_LIMIT };
  else if (webAclArn) {
    // CloudFront only takes web ACLs of scope CLOUDFRONT, which exist in us-east-1 only.
    if (!/^arn:aws[\w-]*:wafv2:us-east-1:\d{12}:global\/webacl\/[\w-]+\/[\w-]+$/.test(webAclArn))
      throw new ContextError(`-c webAclArn=${webAclArn}: expected a CloudFront web ACL, arn:aws:wafv2:us-east-1:<account>:global/webacl/<name>/<id>`);
    waf = { webAclArn };
  }

  const extractionModelId = ctx('extractionModelId');
  if (extractionModelId !== undefined && !/^(arn:aws[\w-]*:bedrock:[\w-]+:\d{12}:[\w-]+\/[\w.:/-]+|[\w.:-]{1,200})$/.test(extractionModelId))
    throw new ContextError(`-c extractionModelId=${extractionModelId}: expected a Bedrock model id (anthropic.claude-3-haiku-20240307-v1:0), an inference profile id (us.anthropic...) or ARN`);

  const alarmEmail = ctx('alarmEmail');
  if (alarmEmail !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(alarmEmail)) throw new ContextError(`-c alarmEmail=${alarmEmail}: not an email address`);

  return {
    stage: ctx('stage') ?? 'dev',
    publicUrl: ctx('publicUrl'),
    certificateArn: ctx('certificateArn'),
    alarmEmail,
    waf,
    bedrockModelId: ctx('bedrockModelId'),
    extractionModelId,
    throttle: rate && burst ? { rateLimit: int('throttleRate', rate, 1, 1_000_000), burstLimit: int('throttleBurst', burst, 1, 1_000_000) } : undefined,
    maxConcurrency,
  };
}

/** The context of `app` as DeployOptions (bin/app.ts). */
export const deployOptionsFromApp = (app: App): DeployOptions => readDeployOptions((key) => app.node.tryGetContext(key));
