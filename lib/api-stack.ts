import { CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import {
  AllowedMethods, CachePolicy, Distribution, OriginProtocolPolicy, OriginRequestPolicy, SecurityPolicyProtocol,
  ViewerProtocolPolicy, ResponseHeadersPolicy,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import { HttpApi, HttpStage, LogGroupLogDestination } from 'aws-cdk-lib/aws-apigatewayv2';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { ENV, ORIGIN_VERIFY_HEADER } from '../functions/config.js';
import type { Route } from '../functions/routes.js';
import type { DeployOptions } from './context.js';
import { cloudFrontWebAcl, publicDomain } from './edge.js';
import { pascal } from './gleaner-function.js';
import { routeGroupOf, RouteGroupStack } from './route-groups.js';
import { runtimeEnvironment, type RuntimeResources } from './runtime-wiring.js';
import { cloudFrontPattern, STREAM_STAGE, StreamApi } from './stream-api.js';
import { accessLogJson } from './access-log.js';

export { ROUTE_DEFAULTS } from './route-groups.js';

export interface ApiStackProps extends StackProps {
  stage: string;
  /** The rows of functions/routes.ts `routes`. */
  routes: readonly Route[];
  resources: RuntimeResources;
  /** Your own https origin in front of the API; requires `certificateArn` (us-east-1). */
  publicUrl?: string;
  certificateArn?: string;
  waf?: DeployOptions['waf'];
  bedrockModelId?: string;
  /** Only its presence matters here: the API answers 422 model_not_configured without it. */
  extractionModelId?: string;
  /** Stage-wide default route throttling. */
  throttle?: { rateLimit: number; burstLimit: number };
}

export const DEFAULT_THROTTLE = { rateLimit: 100, burstLimit: 200 } as const;

/**
 * The HTTP API: exactly one route and one Lambda per `routes` row, on the `$default` stage
 * (so request paths are the row paths: GET /v1/runs/{id}). The functions and routes live in
 * nested stacks, one per route group (route-groups.ts), so no template nears 500 resources.
 * Only CloudFront can use the API: it adds a per-deployment secret header the pipeline checks.
 */
export class ApiStack extends Stack {
  readonly api: HttpApi;
  readonly distribution: Distribution;
  readonly functions: Record<string, NodejsFunction> = {};
  readonly groups: Record<string, RouteGroupStack> = {};
  /** The service origin (no trailing slash): the CloudFront domain, or `publicUrl` when given. */
  readonly origin: string;
  readonly originSecret: Secret;
  /** The REST API serving the `stream: true` rows; undefined when there are none. */
  readonly streamApi?: StreamApi;

  constructor(scope: Construct, id: string, props: ApiStackProps) {
    super(scope, id, props);
    const domain = publicDomain(props.publicUrl, props.certificateArn);

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
        format: AccessLogFormat.custom(accessLogJson('$context.routeKey')),
      },
    });

    // Generated once per stage by Secrets Manager, never in the template or cdk.out: CloudFront
    // and the functions both receive it through a CloudFormation dynamic reference.
    this.originSecret = new Secret(this, 'OriginSecret', {
      description: `Gleaner ${props.stage}: header value CloudFront sends so the API answers only through it`,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const originSecretValue = this.originSecret.secretValue.unsafeUnwrap();

    const webAclId =
      props.waf && 'create' in props.waf
        ? cloudFrontWebAcl(this, 'WebAcl', { stage: props.stage, rateLimit: props.waf.rateLimit }).attrArn
        : props.waf?.webAclArn;

    // One CloudFront domain in front of everything (API.md: base_url, console_url and mcp_url share
    // it). Nothing is cached: every request reaches the API with its headers, cookies and query.
    // AllViewerExceptHostHeader also forwards CloudFront's own headers (CloudFront-Viewer-Address,
    // set by CloudFront, not the viewer), and CloudFront overwrites a viewer-sent header that has
    // the name of a custom origin header, so the secret cannot be supplied from outside.
    this.distribution = new Distribution(this, 'Cdn', {
      comment: `Gleaner ${props.stage}`,
      defaultBehavior: {
        origin: new HttpOrigin(Fn.select(2, Fn.split('/', this.api.apiEndpoint)), {
          protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          customHeaders: { [ORIGIN_VERIFY_HEADER]: originSecretValue },
        }),
        viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        allowedMethods: AllowedMethods.ALLOW_ALL,
        cachePolicy: CachePolicy.CACHING_DISABLED,
        originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
      },
      ...(domain
        ? {
            domainNames: [domain.host],
            certificate: Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      webAclId,
    });
    this.origin = domain ? domain.origin : `https://${this.distribution.distributionDomainName}`;
    const environment = {
      ...runtimeEnvironment(props.resources, { ...props, publicUrl: this.origin }),
      [ENV.originSecret]: originSecretValue,
    };

    const functionLogs = new LogGroup(this, 'FunctionLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    const seen = new Set<string>();
    const byGroup = new Map<string, Route[]>();
    for (const route of props.routes) {
      const name = pascal(route.id);
      const key = `${route.method} ${route.path}`;
      if (seen.has(name)) throw new Error(`Duplicate route id ${route.id}`);
      if (seen.has(key)) throw new Error(`Duplicate route ${key}`);
      seen.add(name).add(key);
      const group = routeGroupOf(route);
      byGroup.set(group, [...(byGroup.get(group) ?? []), route]);
    }
    for (const [group, routes] of byGroup) {
      const stack = new RouteGroupStack(this, `${group}Routes`, {
        stage: props.stage,
        routes,
        api: this.api,
        resources: props.resources,
        environment,
        logGroup: functionLogs,
        description: `Gleaner ${props.stage}: ${group} routes`,
      });
      this.groups[group] = stack;
      Object.assign(this.functions, stack.functions);
    }

    const streamed = props.routes.filter((r) => r.stream);
    if (streamed.length) {
      this.streamApi = new StreamApi(this, 'Streams', {
        stage: props.stage,
        routes: streamed.map((route) => ({ route, fn: this.functions[route.id]! })),
        throttle: props.throttle ?? DEFAULT_THROTTLE,
      });
      // The origin is named from the API id and the stage name, not from the deployed stage
      // (RestApiOrigin): the functions' environment names the distribution, and the stage's
      // deployment needs the functions, so a reference to the stage would be a cycle.
      const origin = new HttpOrigin(`${this.streamApi.api.restApiId}.execute-api.${this.region}.${this.urlSuffix}`, {
        originPath: `/${STREAM_STAGE}`,
        protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
        customHeaders: { [ORIGIN_VERIFY_HEADER]: originSecretValue },
        // Between two chunks of a stream (the first comes after one page read); API Gateway's own idle limit is 5 minutes.
        readTimeout: Duration.seconds(60),
      });
      for (const route of streamed) {
        this.distribution.addBehavior(cloudFrontPattern(route.path), origin, {
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: ResponseHeadersPolicy.SECURITY_HEADERS,
        });
      }
    }

    new CfnOutput(this, 'ApiUrl', { value: `${this.origin}/v1`, description: 'base_url' });
    new CfnOutput(this, 'ConsoleUrl', { value: `${this.origin}/`, description: 'console_url' });
    new CfnOutput(this, 'McpUrl', { value: this.origin, description: 'mcp_url (agent endpoint: POST {mcp_url}/mcp)' });
    new CfnOutput(this, 'DistributionDomainName', {
      value: this.distribution.distributionDomainName,
      description: 'point your publicUrl host here (CNAME or Route 53 alias)',
    });
  }
}
