import { CfnOutput, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AllowedMethods, CachePolicy, Distribution, OriginProtocolPolicy, OriginRequestPolicy, ViewerProtocolPolicy, ResponseHeadersPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpMethod, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ENV } from '../functions/config.js';
import type { Route } from '../functions/routes.js';
import { gleanerFunction, pascal } from './gleaner-function.js';
import { applyGrants, runtimeEnvironment, type RuntimeResources } from './runtime-wiring.js';

export interface ApiStackProps extends StackProps {
  stage: string;
  /** The rows of functions/routes.ts `routes`. */
  routes: readonly Route[];
  resources: RuntimeResources;
  /** A public base address in front of the API (custom domain, CloudFront), if any. */
  publicUrl?: string;
  bedrockModelId?: string;
  /** Stage-wide default route throttling. */
  throttle?: { rateLimit: number; burstLimit: number };
}

/** Defaults for a routes row that does not size itself. */
export const ROUTE_DEFAULTS = { memoryMb: 512, timeoutSeconds: 29 } as const;
export const DEFAULT_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * The HTTP API: exactly one route and one Lambda per `routes` row, on the `$default` stage
 * (so request paths are the row paths: GET /v1/runs/{id}).
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly distribution: Distribution;
  readonly functions: Record<string, NodejsFunction> = {};
  /** The service origin (no trailing slash): the API endpoint, or `publicUrl` when given. */
  readonly origin: string;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);

    this.api = new HttpApi(this, 'HttpApi', {
      apiName: `gleaner-${props.stage}`,
      description: `Gleaner ${props.stage}`,
      createDefaultStage: false,
    });
    const accessLogs = new LogGroup(this, 'AccessLogs', {
      retention: RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? DEFAULT_THROTTLE,
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            userAgent: '$context.identity.userAgent',
          }),
        ),
      },
    });

    // One CloudFront domain in front of everything (API.md: base_url, console_url and mcp_url share
    // it). Nothing is cached: every request reaches the API with its headers, cookies and query.
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Gleaner ${props.stage}`,
      defaultBehavior: {
        origin: new HttpOrigin(Fn.select(2, Fn.split('/', this.api.apiEndpoint)), { protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
      },
    });
    this.origin = props.publicUrl ? props.publicUrl.replace(/\/+$/, '') : `https://${this.distribution.distributionDomainName}`;
    // The API endpoint is a plain attribute of the HttpApi resource, which depends on no
    // function, so functions may carry it without a cycle. Workers only get it via publicUrl.
    const environment = {
      ...runtimeEnvironment(props.resources, props),
      [ENV.publicUrl]: this.origin,
    };

    const functionLogs = new LogGroup(this, 'FunctionLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const seen = new Set<string>();
    for (const route of props.routes) {
      const name = pascal(route.id);
      const key = `${route.method} ${route.path}`;
      if (seen.has(name)) throw new Error(`Duplicate route id ${route.id}`);
      if (seen.has(key)) throw new Error(`Duplicate route ${key}`);
      seen.add(name).add(key);

      const fn = gleanerFunction(this, `${name}Fn`, {
        handler: route.handler,
        memoryMb: route.memoryMb ?? ROUTE_DEFAULTS.memoryMb,
        timeoutSeconds: route.timeoutSeconds ?? ROUTE_DEFAULTS.timeoutSeconds,
        environment,
        logGroup: functionLogs,
        description: `Gleaner ${props.stage}: ${key}`,
      });
      applyGrants(fn, route.grants, props.resources);
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
      this.functions[route.id] = fn;
    }

    new CfnOutput(this, 'ApiUrl', { value: `${this.origin}/v1`, description: 'base_url' });
    new CfnOutput(this, 'ConsoleUrl', { value: `${this.origin}/`, description: 'console_url' });
    new CfnOutput(this, 'McpUrl', { value: this.origin, description: 'mcp_url (agent endpoint: POST {mcp_url}/mcp)' });
  }
}
