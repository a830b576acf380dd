import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  AccessLogFormat, EndpointType, LambdaIntegration, LogGroupLogDestination, ResponseTransferMode, ResponseType, RestApi,
} from 'aws-cdk-lib/aws-apigateway';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { Route } from '../functions/routes.js';
import { accessLogJson } from './access-log.js';

export interface StreamApiProps {
  stage: string;
  /** The rows with `stream: true`, each with its function (created in its route group). */
  routes: readonly { route: Route; fn: IFunction }[];
  throttle: { rateLimit: number; burstLimit: number };
}

/** The REST API's one stage: CloudFront's origin path. */
export const STREAM_STAGE = 'api';

/** Streams may run this long (API Gateway's limit for a streamed response). */
export const STREAM_TIMEOUT = Duration.minutes(15);

/**
 * The routes whose responses stream (exports). HTTP APIs cannot stream a Lambda response, so
 * these rows are served by a REST API whose Lambda proxy integrations use response transfer
 * mode STREAM (invoked through `/response-streaming-invocations`); CloudFront sends their paths
 * here and everything else to the HTTP API. Like the HTTP API it answers only requests carrying
 * the CloudFront origin secret (checked in the functions), and its own answers (an unknown
 * path, throttling, an integration failure) keep the `{code, message}` shape.
 */
export class StreamApi extends Construct {
  readonly api: RestApi;

  constructor(scope: Construct, id: string, props: StreamApiProps) {
    super(scope, id);
    const logs = new LogGroup(this, 'AccessLogs', { retention: RetentionDays.THREE_MONTHS, removalPolicy: RemovalPolicy.DESTROY });
    this.api = new RestApi(this, 'Api', {
      restApiName: `gleaner-${props.stage}-streams`,
      description: `Gleaner ${props.stage}: streamed responses (exports)`,
      endpointTypes: [EndpointType.REGIONAL],
      cloudWatchRole: false,
      deployOptions: {
        stageName: STREAM_STAGE,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
        accessLogDestination: new LogGroupLogDestination(logs),
        accessLogFormat: AccessLogFormat.custom(accessLogJson('$context.httpMethod $context.resourcePath')),
      },
    });
    // Clients use the CloudFront domain (ApiUrl); the execute-api URL answers only CloudFront.
    this.api.node.tryRemoveChild('Endpoint');
    const error = (code: string, message: string) => ({
      'application/json': JSON.stringify({ code, message, request_id: '$context.requestId' }),
    });
    // A path or method this API does not serve: REST APIs answer 403 "Missing Authentication Token".
    this.api.addGatewayResponse('NotFound', { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, statusCode: '404', templates: error('not_found', 'No route for $context.httpMethod $context.path') });
    this.api.addGatewayResponse('Throttled', { type: ResponseType.THROTTLED, statusCode: '429', templates: error('rate_limited', 'Too many requests; retry later') });
    this.api.addGatewayResponse('Failed', { type: ResponseType.DEFAULT_5XX, templates: error('internal_error', 'An unexpected error occurred; quote request id $context.requestId when reporting it') });
    for (const { route, fn } of props.routes) {
      if (route.method === 'ANY') throw new Error(`Streamed route ${route.id} must name its method`);
      this.api.root.resourceForPath(route.path).addMethod(route.method, new LambdaIntegration(fn, { proxy: true, responseTransferMode: ResponseTransferMode.STREAM, timeout: STREAM_TIMEOUT, allowTestInvoke: false }));
    }
  }
}

/** The CloudFront path pattern of a route path: `/v1/runs/{id}/results` -> `/v1/runs/*\/results`. */
export const cloudFrontPattern = (path: string) => path.replace(/\{[^}]+\}/g, '*');
