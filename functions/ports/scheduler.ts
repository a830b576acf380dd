import type { JobFire } from '../core/queue-messages.js';

/** What a schedule carries: each fire sends `{ kind: 'job.fire', ...payload, scheduled_for }` to the jobs queue. */
export type SchedulePayload = Omit<JobFire, 'kind' | 'scheduled_for'>;

/** Recurring schedules (EventBridge Scheduler on AWS, in-process locally). Each fire sends `payload` to the jobs queue. */
export interface Scheduler {
  /**
   * Create or replace. `cron` is a 5-field cron expression read in `timezone` (an IANA name,
   * daylight-saving changes included: a wall time that does not exist is skipped, one that
   * exists twice fires once, as EventBridge Scheduler does).
   */
  upsert(name: string, cron: string, payload: SchedulePayload, enabled: boolean, timezone?: string): Promise<void>;
  remove(name: string): Promise<void>;
}
