import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { WorkerDef } from '../functions/routes.js';
import { ENV } from '../functions/config.js';
import { gleanerFunction, pascal } from './gleaner-function.js';
import { JobScheduler } from './job-scheduler.js';
import { applyGrants, runtimeEnvironment, type DataResources, type QueueId, type RuntimeResources } from './runtime-wiring.js';

export interface WorkersStackProps extends StackProps {
  stage: string;
  data: DataResources;
  /** The rows of functions/routes.ts `workers`. */
  workers: readonly WorkerDef[];
  publicUrl?: string;
  bedrockModelId?: string;
}

/** SQS visibility timeout as a multiple of the consumer's timeout (AWS guidance: at least 6). */
export const VISIBILITY_TIMEOUT_FACTOR = 6;

/**
 * One queue + DLQ + Lambda per `workers` row, plus the job scheduler (its schedules target the
 * jobs queue). Queues are created before any function so every function can be told every
 * queue's URL.
 */
export class WorkersStack extends Stack {
  readonly queues: Record<QueueId, Queue>;
  readonly deadLetterQueues: Record<QueueId, Queue>;
  readonly functions: Record<QueueId, NodejsFunction>;
  readonly scheduler: JobScheduler;
  /** What ApiStack wires its functions to. */
  readonly resources: RuntimeResources;

  constructor(scope: Construct, id: string, props: WorkersStackProps) {
    super(scope, id, props);

    const queues: Partial<Record<QueueId, Queue>> = {};
    const dlqs: Partial<Record<QueueId, Queue>> = {};
    for (const w of props.workers) {
      if (queues[w.id]) throw new Error(`Duplicate worker id ${w.id}`);
      const name = pascal(w.id);
      const dlq = new Queue(this, `${name}Dlq`, {
        retentionPeriod: Duration.days(14),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      queues[w.id] = new Queue(this, `${name}Queue`, {
        visibilityTimeout: Duration.seconds(w.timeoutSeconds * VISIBILITY_TIMEOUT_FACTOR),
        retentionPeriod: Duration.days(4),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: w.maxReceiveCount },
      });
      dlqs[w.id] = dlq;

      new Alarm(this, `${name}DlqAlarm`, {
        alarmDescription: `Gleaner ${props.stage}: messages in the ${w.id} dead-letter queue`,
        metric: dlq.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
    }
    for (const q of ['runs', 'queries', 'deliveries', 'jobs'] as const) {
      if (!queues[q]) throw new Error(`workers must define a '${q}' row`);
    }
    this.queues = queues as Record<QueueId, Queue>;
    this.deadLetterQueues = dlqs as Record<QueueId, Queue>;

    this.scheduler = new JobScheduler(this, 'JobScheduler', { stage: props.stage, jobsQueue: this.queues.jobs });
    this.resources = { ...props.data, queues: this.queues, scheduler: this.scheduler };

    const environment = runtimeEnvironment(this.resources, props);
    const functions: Partial<Record<QueueId, NodejsFunction>> = {};
    for (const w of props.workers) {
      const name = pascal(w.id);
      const fn = gleanerFunction(this, `${name}Worker`, {
        handler: w.handler,
        memoryMb: w.memoryMb,
        timeoutSeconds: w.timeoutSeconds,
        browser: w.browser,
        // The worker dead-letters a record itself (with the reason) instead of letting it be redelivered.
        environment: { ...environment, [ENV.deadLetterQueue]: this.deadLetterQueues[w.id].queueUrl },
        description: `Gleaner ${props.stage}: ${w.id} worker`,
      });
      this.deadLetterQueues[w.id].grantSendMessages(fn);
      fn.addEventSource(
        new SqsEventSource(this.queues[w.id], { batchSize: w.batchSize, reportBatchItemFailures: true }),
      );
      applyGrants(fn, w.grants, this.resources);
      functions[w.id] = fn;
    }
    this.functions = functions as Record<QueueId, NodejsFunction>;
  }
}
