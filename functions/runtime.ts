import type { Config } from './config.js';
import type { Table } from './ports/table.js';
import type { Blobs } from './ports/blobs.js';
import type { Queue } from './ports/queue.js';
import type { Scheduler } from './ports/scheduler.js';
import type { Secrets } from './ports/secrets.js';
import type { Clock } from './ports/clock.js';
import type { CustomerBuckets } from './ports/customer-bucket.js';
import type { AuditSink } from './core/audit/audit.js';
import type { RateLimiter } from './core/limits/rate-limiter.js';
import type { Model } from './ports/model.js';

/** Everything a handler or worker needs, wired once per runtime (the composition root). */
export interface Deps {
  config: Config;
  table: Table;
  blobs: Blobs;
  queue: Queue;
  scheduler: Scheduler;
  secrets: Secrets;
  clock: Clock;
  audit: AuditSink;
  rateLimiter: RateLimiter;
  /** Customers' own buckets (bucket sync), reached through the egress guard. */
  buckets: CustomerBuckets;
  /** The model of the json format, when one is configured (Bedrock on AWS, OpenAI-compatible locally). */
  model?: Model;
}

let current: Deps | undefined;
let building: Promise<Deps> | undefined;

/** Installed by the local server or tests before any handler runs. */
export const setDeps = (d: Deps | undefined) => {
  current = d;
  building = undefined;
};

/** The wired dependencies; on Lambda they are built at cold start from the AWS adapters. */
export async function deps(): Promise<Deps> {
  if (current) return current;
  building ??= import('./adapters/aws/aws-deps.js').then((m) => (current = m.buildAwsDeps()));
  return building;
}
