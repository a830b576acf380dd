/** Recurring schedules (EventBridge Scheduler on AWS, in-process locally). Each fire sends `payload` to the jobs queue. */
export interface Scheduler {
  /** Create or replace. `cron` is a 5-field UTC cron expression. */
  upsert(name: string, cron: string, payload: Record<string, unknown>, enabled: boolean): Promise<void>;
  remove(name: string): Promise<void>;
}
