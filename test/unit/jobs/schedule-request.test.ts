import { describe, expect, it } from 'vitest';
import { scheduleRequest } from '../../../functions/adapters/aws/schedule-request.js';
import { toEventBridgeCron } from '../../../functions/core/jobs/eventbridge-cron.js';

// On AWS a job's schedule is EventBridge Scheduler's, read in the job's own time zone by the
// service (ScheduleExpressionTimezone), so daylight-saving changes are EventBridge's to apply:
// the cron is never shifted to UTC here.
describe('the EventBridge Scheduler request of a job schedule', () => {
  const target = { group: 'gleaner-test', queueArn: 'arn:aws:sqs:eu-west-1:1:jobs', roleArn: 'arn:aws:iam::1:role/sched' };

  it('carries the job time zone and the unshifted cron, targeting the jobs queue as the scheduler role', () => {
    const r = scheduleRequest('job-a-b', toEventBridgeCron('30 2 * * *'), { tenant_id: 'ten_a', job_id: 'job_b' }, true, 'Europe/Berlin', target);
    expect(r).toMatchObject({
      Name: 'job-a-b', GroupName: 'gleaner-test', ScheduleExpression: 'cron(30 2 * * ? *)', ScheduleExpressionTimezone: 'Europe/Berlin',
      State: 'ENABLED', FlexibleTimeWindow: { Mode: 'OFF' }, Target: { Arn: target.queueArn, RoleArn: target.roleArn },
    });
    expect(JSON.parse(r.Target.Input)).toEqual({ kind: 'job.fire', tenant_id: 'ten_a', job_id: 'job_b', scheduled_for: '<aws.scheduler.scheduled-time>' });
  });

  it('a paused job is a disabled schedule; UTC stays UTC', () => {
    const r = scheduleRequest('n', toEventBridgeCron('0 8 * * 1-5'), { tenant_id: 't', job_id: 'j' }, false, 'UTC', target);
    expect(r).toMatchObject({ State: 'DISABLED', ScheduleExpressionTimezone: 'UTC', ScheduleExpression: 'cron(0 8 ? * 2-6 *)' });
  });
});
