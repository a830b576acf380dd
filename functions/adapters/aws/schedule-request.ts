import type { SchedulePayload } from '../../ports/scheduler.js';

/** Where every job schedule delivers: the jobs queue, as the scheduler's role. */
export interface ScheduleTarget {
  group: string;
  queueArn: string;
  roleArn: string;
}

/**
 * The Create/UpdateSchedule request for one job schedule. `eventBridgeCron` is the job's cron
 * already translated (eventbridge-cron.ts); it is read in the job's own time zone through
 * EventBridge Scheduler's `ScheduleExpressionTimezone` (daylight-saving changes handled by the
 * service: a nonexistent wall time is skipped, a repeated one fires once), never converted to
 * UTC here (a fixed UTC translation would drift by an hour twice a year).
 */
export function scheduleRequest(name: string, eventBridgeCron: string, payload: SchedulePayload, enabled: boolean, timezone: string, t: ScheduleTarget) {
  return {
    Name: name,
    GroupName: t.group,
    ScheduleExpression: eventBridgeCron,
    ScheduleExpressionTimezone: timezone,
    State: enabled ? ('ENABLED' as const) : ('DISABLED' as const),
    FlexibleTimeWindow: { Mode: 'OFF' as const },
    Target: { Arn: t.queueArn, RoleArn: t.roleArn, Input: JSON.stringify({ kind: 'job.fire', ...payload, scheduled_for: '<aws.scheduler.scheduled-time>' }) },
  };
}
