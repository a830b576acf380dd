import { NestedStack, type NestedStackProps } from 'aws-cdk-lib';
import { HttpMethod, HttpRoute, HttpRouteKey, type IHttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { Route } from '../functions/routes.js';
import { gleanerFunction, pascal } from './gleaner-function.js';
import { applyGrants, type RuntimeResources } from './runtime-wiring.js';

/**
 * Which nested stack holds a route, decided by its path alone (first match wins). Each route
 * costs ~6 resources (function, role, policy, permission, integration, route); one stack holding
 * all ~75 came within 50 of CloudFormation's 500. The grouping must stay stable: moving a route
 * to another group would create its `METHOD /path` in the new stack while the old one still
 * holds it, and API Gateway refuses the duplicate route key mid-deploy.
 */
export const ROUTE_GROUPS: readonly { name: string; test: RegExp }[] = [
  { name: 'ConsoleAdmin', test: /^\/dashboard\/api\/(session|keys|secrets|settings|audit)(\/|$)/ },
  { name: 'ConsoleData', test: /^\/dashboard\// },
  { name: 'Runs', test: /^\/v1\/(runs|scrape|scrapers|runbooks|captcha)(\/|$)/ },
  { name: 'Queries', test: /^\/v1\/queries(\/|$)/ },
  { name: 'Jobs', test: /^\/v1\/(jobs|webhooks|storage)(\/|$)/ },
  // '/', '/console/...', '/docs', '/mcp', '/v1', '/v1/openapi.json', '/v1/tenant', '/{proxy+}'
  { name: 'Core', test: /^/ },
];

export const routeGroupOf = (route: Pick<Route, 'path'>): string => ROUTE_GROUPS.find((g) => g.test.test(route.path))!.name;

/** Defaults for a routes row that does not size itself. */
export const ROUTE_DEFAULTS = { memoryMb: 512, timeoutSeconds: 29 } as const;

export interface RouteGroupProps extends NestedStackProps {
  stage: string;
  routes: readonly Route[];
  api: IHttpApi;
  resources: RuntimeResources;
  environment: Record<string, string>;
  logGroup: ILogGroup;
}

/** One nested stack: one Lambda per row of its group, and an HTTP API route for each row that does not stream. */
export class RouteGroupStack extends NestedStack {
  readonly functions: Record<string, NodejsFunction> = {};

  constructor(scope: Construct, id: string, props: RouteGroupProps) {
    super(scope, id, props);
    for (const route of props.routes) {
      const name = pascal(route.id);
      const key = `${route.method} ${route.path}`;
      const fn = gleanerFunction(this, `${name}Fn`, {
        handler: route.handler,
        memoryMb: route.memoryMb ?? ROUTE_DEFAULTS.memoryMb,
        timeoutSeconds: route.timeoutSeconds ?? ROUTE_DEFAULTS.timeoutSeconds,
        validators: route.validators,
        environment: props.environment,
        logGroup: props.logGroup,
        description: `Gleaner ${props.stage}: ${key}`,
      });
      applyGrants(fn, route.grants, props.resources);
      this.functions[route.id] = fn;
      // A streamed route is served by the REST API (stream-api.ts), which alone can stream.
      if (route.stream) continue;
      new HttpRoute(this, `${name}Route`, {
        httpApi: props.api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
        integration: new HttpLambdaIntegration(`${name}Integration`, fn),
      });
    }
  }
}
