import { Duration, Stack, type StackProps } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import type { WorkerDef } from '../functions/routes.js';
import { ENV } from '../functions/config.js';
import { DEFAULT_MAX_CONCURRENCY } from './context.js';
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
  extractionModelId?: string;
  /** SQS event source MaximumConcurrency per worker (context.ts defaults). */
  maxConcurrency?: Partial<Record<QueueId, number>>;
}

/**
 * SQS visibility timeout as a multiple of the consumer's timeout (AWS guidance for Lambda event
 * sources: at least 6, so a message is not handed out again while a throttled or retried
 * invocation still holds it). A worker that fails a record shortens it per message.
 */
export const VISIBILITY_TIMEOUT_FACTOR = 6;
/** Days a message waits in a DLQ: longer than the source queue keeps it (AWS guidance). */
export const DLQ_RETENTION_DAYS = 14;
export const QUEUE_RETENTION_DAYS = 4;

/**
 * One queue + DLQ + Lambda per `workers` row (alarms: ops-stack.ts), plus the job scheduler (its schedules target the
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
        retentionPeriod: Duration.days(DLQ_RETENTION_DAYS),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
      });
      queues[w.id] = new Queue(this, `${name}Queue`, {
        visibilityTimeout: Duration.seconds(w.timeoutSeconds * VISIBILITY_TIMEOUT_FACTOR),
        retentionPeriod: Duration.days(QUEUE_RETENTION_DAYS),
        encryption: QueueEncryption.SQS_MANAGED,
        enforceSSL: true,
        deadLetterQueue: { queue: dlq, maxReceiveCount: w.maxReceiveCount },
      });
      dlqs[w.id] = dlq;
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
        // A burst waits in the queue: Lambda's SQS poller never runs more than maxConcurrency
        // invocations of this worker at once (the runs worker: that many Chromium browsers).
        new SqsEventSource(this.queues[w.id], {
          batchSize: w.batchSize,
          reportBatchItemFailures: true,
          maxConcurrency: props.maxConcurrency?.[w.id] ?? DEFAULT_MAX_CONCURRENCY[w.id],
        }),
      );
      applyGrants(fn, w.grants, this.resources, { extractionModelId: props.extractionModelId });
      functions[w.id] = fn;
    }
    this.functions = functions as Record<QueueId, NodejsFunction>;
  }
}
