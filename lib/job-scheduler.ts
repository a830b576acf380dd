import { Stack } from 'aws-cdk-lib';
import { Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { CfnSchedule, CfnScheduleGroup } from 'aws-cdk-lib/aws-scheduler';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { SchedulerResources } from './runtime-wiring.js';

export interface JobSchedulerProps {
  stage: string;
  /** The target of every schedule the runtime creates. */
  jobsQueue: IQueue;
}

/**
 * The EventBridge Scheduler schedule group that runtime code creates job schedules in, and the
 * role those schedules assume to deliver to the jobs queue (and nothing else).
 */
export class JobScheduler extends Construct implements SchedulerResources {
  readonly group: CfnScheduleGroup;
  readonly groupName: string;
  readonly role: IRole;

  constructor(scope: Construct, id: string, props: JobSchedulerProps) {
    super(scope, id);
    this.group = new CfnScheduleGroup(this, 'Group', { name: `gleaner-${props.stage}` });
    // Ref of AWS::Scheduler::ScheduleGroup is its name; using it orders consumers after the group.
    this.groupName = this.group.ref;

    const stack = Stack.of(this);
    const role = new Role(this, 'Role', {
      description: `Gleaner ${props.stage}: assumed by job schedules to send to the jobs queue`,
      // Confused-deputy guard: only schedules in this account's group may assume it.
      assumedBy: new ServicePrincipal('scheduler.amazonaws.com').withConditions({
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': this.group.attrArn },
      }),
    });
    props.jobsQueue.grantSendMessages(role);
    this.role = role;

    // Daily retention sweep (Settings > Storage retention_days): the jobs worker fans it out per tenant.
    new CfnSchedule(this, 'StorageSweep', {
      groupName: this.group.ref,
      scheduleExpression: 'cron(17 3 * * ? *)',
      scheduleExpressionTimezone: 'UTC',
      flexibleTimeWindow: { mode: 'FLEXIBLE', maximumWindowInMinutes: 30 },
      target: { arn: props.jobsQueue.queueArn, roleArn: role.roleArn, input: JSON.stringify({ kind: 'storage.sweep' }) },
    });
  }
}
