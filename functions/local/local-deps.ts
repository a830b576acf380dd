import { join, resolve } from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Config } from '../config.js';
import type { Deps } from '../runtime.js';
import type { Queue } from '../ports/queue.js';
import type { Table } from '../ports/table.js';
import { s3CustomerBuckets } from '../adapters/aws/customer-bucket.js';
import { egressCheck } from '../core/events/egress.js';
import { DynamoTable } from '../adapters/aws/dynamo-table.js';
import { S3Blobs } from '../adapters/aws/s3-blobs.js';
import { LocalScheduler } from '../adapters/local/local-scheduler.js';
import { LocalSecrets } from '../adapters/local/local-secrets.js';
import { BufferedAuditSink } from '../core/audit/audit.js';
import { FileAuditJournal } from '../adapters/local/audit-journal.js';
import { RateLimiter } from '../core/limits/rate-limiter.js';
import { systemClock } from '../ports/clock.js';
import { configuredModel } from '../adapters/configured-model.js';

/** Where the local service journals audit records before the table has them (adapters/local/audit-journal.ts). */
export const auditJournalDir = (cfg: Config): string => join(resolve(cfg.dataDir), 'audit-journal');

/**
 * The local service's dependencies over its stores' clients: the same in the service's main thread
 * and in its crawl thread (crawl-thread.ts), which differ only in the queue they send to.
 */
export function localDeps<Q extends Queue>(cfg: Config, stores: { dynamo: DynamoDBClient; s3: S3Client }, queue: (table: Table) => Q): Deps & { queue: Q; scheduler: LocalScheduler } {
  const table = new DynamoTable(cfg.table, stores.dynamo);
  const q = queue(table);
  return {
    config: cfg,
    table,
    blobs: new S3Blobs(stores.s3, { results: cfg.resultsBucket, raw: cfg.rawBucket }),
    queue: q,
    scheduler: new LocalScheduler(table, q),
    secrets: new LocalSecrets(join(resolve(cfg.dataDir), 'secrets.key')),
    clock: systemClock,
    // Durable at the journal's append, in the table within moments (core/audit/audit.ts).
    // GLEANER_AUDIT_FLUSH_MS (tests) holds records in the journal longer before their table write.
    audit: new BufferedAuditSink(table, undefined, undefined, new FileAuditJournal(auditJournalDir(cfg)), cfg.auditFlushMs),
    rateLimiter: new RateLimiter(table),
    buckets: s3CustomerBuckets(egressCheck(cfg)),
    // Locally an OpenAI-compatible endpoint (Ollama, vLLM) first; Bedrock if only that is set.
    model: configuredModel(cfg, 'openai'),
  };
}
