import { Stack, Token } from 'aws-cdk-lib';
import { CfnWebACL } from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { ContextError } from './context.js';

export interface PublicDomain {
  /** The origin without trailing slash: https://scrape.example.com */
  origin: string;
  host: string;
  certificateArn: string;
}

/**
 * `-c publicUrl` only works when CloudFront answers on that host: it needs an alias and an ACM
 * certificate, which CloudFront only takes from us-east-1. Refuses anything else at synth time.
 */
export function publicDomain(publicUrl: string | undefined, certificateArn: string | undefined): PublicDomain | undefined {
  if (publicUrl === undefined) {
    if (certificateArn) throw new ContextError('-c certificateArn is only used with -c publicUrl=https://<your host>');
    return undefined;
  }
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new ContextError(`-c publicUrl=${publicUrl}: not a URL; expected https://<your host>`);
  }
  if (url.protocol !== 'https:' || url.port || url.username || url.search || url.hash || (url.pathname !== '/' && url.pathname !== ''))
    throw new ContextError(`-c publicUrl=${publicUrl}: expected a bare https origin such as https://scrape.example.com (no port, path or query)`);
  if (!certificateArn)
    throw new ContextError(
      `-c publicUrl=${publicUrl} needs -c certificateArn=arn:aws:acm:us-east-1:<account>:certificate/<id>: ` +
        `an ACM certificate in us-east-1 covering ${url.hostname}, so CloudFront can answer on that name. ` +
        'Then point the name at the DistributionDomainName output (CNAME or Route 53 alias).',
    );
  if (!/^arn:aws[\w-]*:acm:us-east-1:\d{12}:certificate\/[\w-]+$/.test(certificateArn))
    throw new ContextError(`-c certificateArn=${certificateArn}: CloudFront only takes ACM certificates from us-east-1 (arn:aws:acm:us-east-1:<account>:certificate/<id>)`);
  return { origin: `https://${url.hostname}`, host: url.hostname, certificateArn };
}

/** Managed rule groups that would block ordinary API traffic, counted instead of blocked. */
export const WAF_COUNT_ONLY: Record<string, string[]> = {
  // API bodies run up to 1 MiB (runbooks, secrets) and legitimately carry HTML and script
  // snippets (selectors, extraction steps); the common rule set blocks both at 8 KiB / on sight.
  AWSManagedRulesCommonRuleSet: ['SizeRestrictions_BODY', 'CrossSiteScripting_BODY'],
};
export const WAF_MANAGED_GROUPS = ['AWSManagedRulesAmazonIpReputationList', 'AWSManagedRulesCommonRuleSet', 'AWSManagedRulesKnownBadInputsRuleSet'];

/** Refuses `-c waf=true` unless the stage deploys to us-east-1, the only home of CloudFront web ACLs. */
export function assertWafRegion(region: string | undefined): void {
  const unknown = region === undefined || Token.isUnresolved(region);
  if (!unknown && region === 'us-east-1') return;
  throw new ContextError(
    `-c waf=true: a CloudFront web ACL can only be created in us-east-1, but this stage deploys to ${unknown ? 'an unspecified region' : region}. ` +
      'Deploy the stage with AWS_REGION=us-east-1 (and a resolved account/region), or create the web ACL in us-east-1 and pass -c webAclArn=<its ARN>.',
  );
}

/**
 * A CloudFront-scope web ACL: AWS managed rule groups and a per-address rate limit. Scope
 * CLOUDFRONT exists only in us-east-1, so the stack must deploy there (refused otherwise;
 * elsewhere, create the ACL in us-east-1 yourself and pass -c webAclArn).
 */
export function cloudFrontWebAcl(scope: Construct, id: string, opts: { stage: string; rateLimit: number }): CfnWebACL {
  assertWafRegion(Stack.of(scope).region);
  const visibility = (name: string) => ({ cloudWatchMetricsEnabled: true, metricName: `gleaner-${opts.stage}-${name}`, sampledRequestsEnabled: true });
  return new CfnWebACL(scope, id, {
    name: `gleaner-${opts.stage}`,
    scope: 'CLOUDFRONT',
    defaultAction: { allow: {} },
    visibilityConfig: visibility('waf'),
    rules: [
      {
        name: 'rate-per-address',
        priority: 0,
        action: { block: {} },
        statement: { rateBasedStatement: { limit: opts.rateLimit, aggregateKeyType: 'IP' } },
        visibilityConfig: visibility('rate'),
      },
      ...WAF_MANAGED_GROUPS.map((name, i) => ({
        name,
        priority: i + 1,
        overrideAction: { none: {} },
        statement: {
          managedRuleGroupStatement: {
            vendorName: 'AWS',
            name,
            ruleActionOverrides: WAF_COUNT_ONLY[name]?.map((rule) => ({ name: rule, actionToUse: { count: {} } })),
          },
        },
        visibilityConfig: visibility(name),
      })),
    ],
  });
}
