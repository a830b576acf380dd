import type { Table } from '../../ports/table.js';
import type { Queue } from '../../ports/queue.js';
import type { Scheduler, SchedulePayload } from '../../ports/scheduler.js';
import { nextRun } from '../../core/jobs/cron.js';
import { log } from '../../core/log.js';

const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * In-process EventBridge Scheduler: schedules live in the table (so they survive restarts);
 * each fire sends the payload to the jobs queue, exactly as the AWS target does.
 */
export class LocalScheduler implements Scheduler {
  private timers = new Map<string, NodeJS.Timeout>();
  private stopped = false;
  constructor(private readonly table: Table, private readonly queue: Queue, private readonly now = () => new Date()) {}

  async upsert(name: string, cron: string, payload: SchedulePayload, enabled: boolean, timezone = 'UTC'): Promise<void> {
    await this.table.put({ pk: 'LSCHED', sk: name, cron, payload, enabled, timezone });
    this.arm(name, cron, payload, enabled, timezone);
  }

  async remove(name: string): Promise<void> {
    await this.table.delete({ pk: 'LSCHED', sk: name });
    this.disarm(name);
  }

  async start(): Promise<number> {
    let cursor: string | undefined;
    let n = 0;
    do {
      const p = await this.table.query({ pk: 'LSCHED', cursor, limit: 200 });
      for (const i of p.items) {
        this.arm(i.sk, String(i.cron), i.payload as SchedulePayload, Boolean(i.enabled), typeof i.timezone === 'string' ? i.timezone : 'UTC');
        n++;
      }
      cursor = p.cursor ?? undefined;
    } while (cursor);
    return n;
  }

  stop() {
    this.stopped = true;
    for (const name of [...this.timers.keys()]) this.disarm(name);
  }

  private disarm(name: string) {
    const t = this.timers.get(name);
    if (t) clearTimeout(t);
    this.timers.delete(name);
  }

  private arm(name: string, cron: string, payload: SchedulePayload, enabled: boolean, timezone: string) {
    this.disarm(name);
    if (!enabled || this.stopped) return;
    const at = nextRun(cron, this.now(), timezone);
    const wait = at.getTime() - Date.now();
    const t = setTimeout(() => {
      if (wait > MAX_TIMER_MS) return this.arm(name, cron, payload, enabled, timezone); // far future: re-arm in steps
      this.queue
        .send('jobs', { kind: 'job.fire', ...payload, scheduled_for: at.toISOString() })
        .catch((err) => log.error('schedule fire failed', { name, err }))
        .finally(() => this.arm(name, cron, payload, enabled, timezone));
    }, Math.min(Math.max(0, wait), MAX_TIMER_MS));
    t.unref?.();
    this.timers.set(name, t);
  }
}
