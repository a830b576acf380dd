import { mkdtempSync, rmSync } from 'node:fs';
import { s3CustomerBuckets } from '../../../functions/adapters/aws/customer-bucket.js';
import { egressCheck } from '../../../functions/core/events/egress.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryStores } from '../foundation/stores.js';
import { loadConfig } from '../../../functions/config.js';
import { S3Blobs } from '../../../functions/adapters/aws/s3-blobs.js';
import { LocalSecrets } from '../../../functions/adapters/local/local-secrets.js';
import { DirectAuditSink } from '../../../functions/core/audit/audit.js';
import { RateLimiter } from '../../../functions/core/limits/rate-limiter.js';
import type { Deps } from '../../../functions/runtime.js';
import type { QueueName } from '../../../functions/ports/queue.js';
import { encodeMessage } from '../../../functions/core/queue-messages.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';

export interface Sent {
  queue: QueueName;
  message: Record<string, unknown>;
  delaySeconds?: number;
}

/** Core deps on dynalite + s3rver with a recording queue and scheduler and a settable clock. */
export interface Harness {
  deps: Deps;
  sent: Sent[];
  schedules: Map<string, { cron: string; payload: Record<string, unknown>; enabled: boolean }>;
  clock: { now: Date };
  stores: EmbeddedStores;
  close(): Promise<void>;
}

export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const { stores, table } = await memoryStores();
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-harness-'));
  const sent: Sent[] = [];
  const schedules: Harness['schedules'] = new Map();
  const clock = { now: new Date() };
  const config = loadConfig({ GLEANER_DATA_DIR: dir, ...env });
  const deps: Deps = {
    config,
    table,
    blobs: new S3Blobs(stores.s3, { results: 'test-results', raw: 'test-raw' }),
    // Records what was sent, after the same schema check every real queue makes.
    queue: { send: async (queue, message, opts) => void sent.push({ queue, message: JSON.parse(encodeMessage(queue, message)), delaySeconds: opts?.delaySeconds }) },
    scheduler: {
      upsert: async (name, cron, payload, enabled) => void schedules.set(name, { cron, payload, enabled }),
      remove: async (name) => void schedules.delete(name),
    },
    secrets: new LocalSecrets(join(dir, 'secrets.key')),
    clock: { now: () => clock.now },
    audit: new DirectAuditSink(table),
    rateLimiter: new RateLimiter(table),
    buckets: s3CustomerBuckets(egressCheck(config)),
  };
  return {
    deps, sent, schedules, clock, stores,
    async close() {
      await stores.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
