import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, MathExpression, TreatMissingData, type IAlarmAction, type Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { pascal } from './gleaner-function.js';
import type { QueueId } from './runtime-wiring.js';

export interface OpsStackProps extends StackProps {
  stage: string;
  workers: { functions: Record<QueueId, IFunction>; deadLetterQueues: Record<QueueId, IQueue> };
  api: HttpApi;
  /** The REST API serving streamed routes (exports), alarmed like the HTTP API. */
  streamApi?: RestApi;
  /** Subscribed to the alarm topic (`-c alarmEmail=`). */
  alarmEmail?: string;
}

/** API 5xx share of requests (percent, over 5 minutes) that alarms, once traffic is meaningful. */
export const API_5XX_PERCENT = 5;
export const API_5XX_MIN_REQUESTS = 20;

/**
 * Who gets told: one SNS topic that every alarm notifies (on ALARM and back to OK), and the
 * alarms: each worker's DLQ depth, errors and throttles, and the API's 5xx rate.
 */
export class OpsStack extends Stack {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: OpsStackProps) {
    super(scope, id, props);

    // CloudWatch can only publish to an encrypted topic whose key policy lets it use the key
    // (the AWS managed aws/sns key cannot be shared), so the topic gets its own key.
    const key = new Key(this, 'AlarmTopicKey', {
      description: `Gleaner ${props.stage}: alarm topic`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': this.account } },
      }),
    );
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `Gleaner ${props.stage} alarms`,
      masterKey: key,
      enforceSSL: true,
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action: IAlarmAction = new SnsAction(this.topic);

    const alarm = (id: string, a: ConstructorParameters<typeof Alarm>[2]) => {
      const created = new Alarm(this, id, { treatMissingData: TreatMissingData.NOT_BREACHING, ...a });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    for (const [wid, fn] of Object.entries(props.workers.functions) as [QueueId, IFunction][]) {
      const name = pascal(wid);
      alarm(`${name}DlqAlarm`, {
        alarmDescription: `Gleaner ${props.stage}: messages in the ${wid} dead-letter queue (records that exhausted their retries)`,
        metric: props.workers.deadLetterQueues[wid].metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        threshold: 0,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 1,
      });
      alarm(`${name}ErrorsAlarm`, {
        alarmDescription: `Gleaner ${props.stage}: the ${wid} worker failed whole invocations (crash or timeout)`,
        metric: fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
      alarm(`${name}ThrottlesAlarm`, {
        alarmDescription: `Gleaner ${props.stage}: the ${wid} worker was throttled (account concurrency exhausted)`,
        metric: fn.metricThrottles({ period: Duration.minutes(5), statistic: 'Sum' }),
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
      });
    }

    const fiveXxRate = (id: string, what: string, errors: Metric, requests: Metric) =>
      alarm(id, {
        alarmDescription: `Gleaner ${props.stage}: more than ${API_5XX_PERCENT}% of ${what} answered 5xx`,
        metric: new MathExpression({
          expression: `IF(requests >= ${API_5XX_MIN_REQUESTS}, 100 * errors / requests, 0)`,
          usingMetrics: { errors, requests },
          period: Duration.minutes(5),
          label: 'API 5xx %',
        }),
        threshold: API_5XX_PERCENT,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
      });
    fiveXxRate('Api5xxRateAlarm', 'API requests', props.api.metricServerError({ statistic: 'Sum' }), props.api.metricCount({ statistic: 'Sum' }));
    if (props.streamApi)
      fiveXxRate('StreamApi5xxRateAlarm', 'streamed requests (exports)', props.streamApi.metricServerError({ statistic: 'Sum' }), props.streamApi.metricCount({ statistic: 'Sum' }));

    new CfnOutput(this, 'AlarmTopicArn', { value: this.topic.topicArn, description: 'subscribe more endpoints to be told about alarms' });
  }
}
