import type { Blobs } from '../../ports/blobs.js';
import type { Table } from '../../ports/table.js';
import type { RawLogEntry } from '../engine/types.js';
import type { Mask } from '../scrapers/secret-redactor.js';

export const RAW_LOG_RETENTION_DAYS = 90;
const FLUSH_EVERY = 500;

const logKey = (tenantId: string, runId: string, attempt: number, seq: number, label?: string) =>
  `tenants/${tenantId}/runs/${runId}/log-a${attempt}-${label ? `${label}-` : ''}${String(seq).padStart(5, '0')}.ndjson`;

/**
 * The raw scrape log of a run (one line per request: url, status, bytes, timing, decision),
 * written as NDJSON chunks to the raw bucket and indexed in the table. Raw logs are deleted
 * after 90 days: by the bucket's lifecycle rule on AWS and the TTL on the index, by the sweeper
 * locally (which lists the table, not the bucket).
 */
export class RawLogWriter {
  private buf: RawLogEntry[] = [];
  private seq = 0;
  private pending: Promise<void> = Promise.resolve();
  /**
   * `label` keeps the chunks of writers that share one attempt apart (the slices of a distributed
   * crawl). `mask` is applied to every entry, every field (url, final_url, reason), before it is
   * kept: a run that fills secrets passes its redactor's, so no spelling of one reaches the log.
   */
  constructor(private readonly table: Table, private readonly blobs: Blobs, private readonly tenantId: string, private readonly runId: string, private readonly attempt: number, private readonly label?: string, private readonly mask?: Mask) {}

  add(e: RawLogEntry) {
    this.buf.push(this.mask ? this.mask(e) : e);
    if (this.buf.length >= FLUSH_EVERY) void this.flush();
  }

  flush(): Promise<void> {
    const chunk = this.buf;
    this.buf = [];
    this.pending = this.pending.then(async () => {
      if (!chunk.length) return;
      const key = logKey(this.tenantId, this.runId, this.attempt, this.seq++, this.label);
      const now = new Date();
      await this.blobs.put('raw', key, chunk.map((l) => JSON.stringify(l)).join('\n') + '\n', 'application/x-ndjson');
      await this.table.put({
        pk: `TEN#${this.tenantId}`, sk: `RAWLOG#${this.runId}#${key}`, key, run_id: this.runId, attempt: this.attempt, lines: chunk.length,
        created_at: now.toISOString(), gsi1pk: 'RAWLOGS', gsi1sk: `${now.toISOString()}#${key}`,
        expires_at: Math.floor(now.getTime() / 1000) + RAW_LOG_RETENTION_DAYS * 86400,
      });
    });
    return this.pending;
  }
}

/** The run log of the current attempt, in order. */
export async function readRunLog(table: Table, blobs: Blobs, tenantId: string, runId: string, attempt: number): Promise<RawLogEntry[]> {
  const p = await table.query({ pk: `TEN#${tenantId}`, skBeginsWith: `RAWLOG#${runId}#` });
  const out: RawLogEntry[] = [];
  for (const i of p.items.filter((x) => x.attempt === attempt)) {
    const raw = await blobs.get('raw', String(i.key));
    if (raw) for (const line of Buffer.from(raw).toString('utf8').split('\n')) if (line) out.push(JSON.parse(line));
  }
  return out;
}

/** Delete raw logs older than the retention (local sweeper; on AWS lifecycle + TTL do it). */
export async function sweepRawLogs(table: Table, blobs: Blobs, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - RAW_LOG_RETENTION_DAYS * 86400_000).toISOString();
  let n = 0;
  for (;;) {
    const p = await table.query({ index: 'gsi1', pk: 'RAWLOGS', skBetween: ['0', cutoff], limit: 100 });
    if (!p.items.length) return n;
    for (const i of p.items) {
      await blobs.delete('raw', String(i.key));
      await table.delete({ pk: i.pk, sk: i.sk });
      n++;
    }
  }
}
