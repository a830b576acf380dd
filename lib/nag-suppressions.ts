import type { CfnResource } from 'aws-cdk-lib';
import { AwsSolutionsChecks, NagRuleCompliance, type IApplyRule, type NagPackProps, type NagRuleResult } from 'cdk-nag';
import type { IConstruct } from 'constructs';

export interface NagSuppression {
  /** cdk-nag rule id, e.g. AwsSolutions-IAM5. */
  id: string;
  /**
   * Only findings whose text matches (the part in brackets of `AwsSolutions-IAM5[Resource::…]`).
   * A pattern, not a literal: cross-stack values appear in findings as stage-specific tokens.
   */
  finding?: RegExp;
  /** Only resources whose construct path matches, stage left out: `Api/Cdn/Resource`. */
  path?: RegExp;
  /** Why the finding is accepted. */
  reason: string;
}

const OWN_BUCKET_OBJECTS = /^Resource::.*(ResultsBucket|RawBucket)[^/]*\/(.*\/)?\*$/;

/**
 * THE list of accepted cdk-nag AwsSolutions findings, each with its reason. Nothing else
 * suppresses: GleanerNagChecks consults only this list.
 */
export const NAG_SUPPRESSIONS: readonly NagSuppression[] = [
  {
    id: 'AwsSolutions-IAM4',
    finding: /^Policy::arn:(<AWS::Partition>|aws[\w-]*):iam::aws:policy\/service-role\/AWSLambdaBasicExecutionRole$/,
    reason: 'Every function writes its own logs; the AWS managed basic execution role is exactly that (logs only) and tracks service changes.',
  },
  {
    id: 'AwsSolutions-IAM5',
    finding: /^Resource::.*Table.*\/index\/\*$/,
    reason: "Queries on the single table's own GSIs (gsi1, gsi2): access is to this table's indexes only.",
  },
  {
    id: 'AwsSolutions-IAM5',
    finding: OWN_BUCKET_OBJECTS,
    reason: "Object keys are per tenant and per run, unknown at deploy time; the grant stays inside Gleaner's own results/raw bucket (tenant isolation is enforced in code on the key prefix).",
  },
  {
    id: 'AwsSolutions-IAM5',
    finding: /^Action::(s3:(GetObject|GetBucket|List|DeleteObject|Abort|PutObject)\*|kms:(ReEncrypt|GenerateDataKey)\*)$/,
    reason: 'CDK grant helpers name action families (s3:GetObject*, kms:GenerateDataKey*) on one bucket or key; the resource, not the action, bounds the grant.',
  },
  {
    id: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:(<AWS::Partition>|aws[\w-]*):scheduler:.*:schedule\/.*\/\*$/,
    reason: "Job schedules are created per job at run time, named by job id, only inside Gleaner's own schedule group.",
  },
  {
    id: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:(<AWS::Partition>|aws[\w-]*):bedrock:\*:(<AWS::AccountId>|\d{12})?:(foundation-model|inference-profile)\/\*$/,
    reason: 'The Bedrock model is deployment configuration (-c bedrockModelId) and cross-region inference profiles route to foundation models in other regions; only InvokeModel is granted.',
  },
  {
    id: 'AwsSolutions-IAM5',
    finding: /^Resource::arn:(<AWS::Partition>|aws[\w-]*):bedrock:\*::foundation-model\/[\w.:-]+$/,
    reason: 'A cross-region inference profile (-c extractionModelId=us.…) routes each call to the one named foundation model in any region of its geography; only InvokeModel on that model is granted.',
  },
  {
    id: 'AwsSolutions-L1',
    reason: 'nodejs22.x is a Lambda-supported LTS runtime; bundles target node22 and the local server and tests run the same major. Moving to a newer runtime is a deliberate upgrade, not a deploy-time surprise.',
  },
  {
    id: 'AwsSolutions-APIG4',
    path: /^Api\/\w+Routes\/\w+Route\/Resource$/,
    reason: 'Every route authenticates in its Lambda (API key or console session, scope per route; public routes are public by design), and the API answers only requests carrying the CloudFront origin secret.',
  },
  {
    id: 'AwsSolutions-APIG4',
    path: /^Api\/Streams\/Api\/Default\/.+\/(GET|POST|PUT|PATCH|DELETE)\/Resource$/,
    reason: 'The streamed routes (exports) authenticate in their Lambda like every HTTP API route (API key or console session, scope per route), and answer only requests carrying the CloudFront origin secret.',
  },
  {
    id: 'AwsSolutions-COG4',
    path: /^Api\/Streams\/Api\/Default\/.+\/(GET|POST|PUT|PATCH|DELETE)\/Resource$/,
    reason: 'Callers are API keys and console sessions, verified in the Lambda pipeline; there is no Cognito user pool to authorize against.',
  },
  {
    id: 'AwsSolutions-APIG2',
    path: /^Api\/Streams\/Api\/Resource$/,
    reason: "Requests are validated in the function against the route contract's zod schemas (the same ones the OpenAPI document is built from), with the API's {code, message} errors; an API Gateway validator would answer in another shape.",
  },
  {
    id: 'AwsSolutions-APIG3',
    path: /^Api\/Streams\/Api\/DeploymentStage\.api\/Resource$/,
    reason: 'The REST API is reached through the CloudFront distribution (origin secret checked in the functions), where the optional WAF web ACL applies to every request.',
  },
  {
    id: 'AwsSolutions-APIG6',
    path: /^Api\/Streams\/Api\/DeploymentStage\.api\/Resource$/,
    reason: 'Access logs are on; execution logging needs the account-wide API Gateway CloudWatch role, which a stack should not take over, and every function logs each request with its request id.',
  },
  {
    id: 'AwsSolutions-SMG4',
    path: /^Api\/OriginSecret\/Resource$/,
    reason: 'The CloudFront origin secret reaches CloudFront and the functions as a deploy-time dynamic reference; a rotation would only take effect (and keep them in step) on the next deploy.',
  },
  {
    id: 'AwsSolutions-CFR1',
    path: /^Api\/Cdn\/Resource$/,
    reason: 'The service has no geographic audience restriction; tenants and API keys govern access.',
  },
  {
    id: 'AwsSolutions-CFR2',
    path: /^Api\/Cdn\/Resource$/,
    reason: 'WAF is opt-in (-c waf=true in us-east-1, or -c webAclArn): it costs per request; per-tenant rate limits apply in the pipeline either way.',
  },
  {
    id: 'AwsSolutions-CFR3',
    path: /^Api\/Cdn\/Resource$/,
    reason: 'Every request CloudFront forwards is in the API access log (AccessLogs) and, with the viewer address, in the audit log; CloudFront standard logs would need an ACL-enabled bucket.',
  },
  {
    id: 'AwsSolutions-CFR4',
    path: /^Api\/Cdn\/Resource$/,
    reason: 'Without -c publicUrl the distribution uses the default *.cloudfront.net certificate, whose minimum TLS version cannot be set; with a certificate it is TLSv1.2_2021.',
  },
];

/** 'Gleaner-prod-Api/Cdn/Resource' -> 'Api/Cdn/Resource' (stack names: lib/gleaner.ts). */
const pathBelowStack = (node: IConstruct) => node.node.path.replace(/^Gleaner-[a-z0-9-]+?-(?=[A-Z])/, '');

/** The suppression that accepts this finding (`finding` undefined: the rule itself), if any. */
export function acceptedBy(ruleId: string, finding: string | undefined, node: IConstruct): NagSuppression | undefined {
  const path = pathBelowStack(node);
  return NAG_SUPPRESSIONS.find(
    (s) => s.id === ruleId && (!s.finding || (finding !== undefined && s.finding.test(finding))) && (!s.path || s.path.test(path)),
  );
}

/**
 * AwsSolutions checks with NAG_SUPPRESSIONS applied. cdk-nag 3 acknowledges findings only by
 * exact id, and ids of cross-stack grants embed stage-specific tokens, so accepted findings are
 * filtered here, by pattern, before cdk-nag reports them.
 */
export class GleanerNagChecks extends AwsSolutionsChecks {
  constructor(scope?: IConstruct, props?: NagPackProps) {
    super(scope, props);
  }

  protected override applyRule(params: IApplyRule): void {
    const rule = params.rule;
    const ruleId = `${this.packName}-${params.ruleSuffixOverride ?? rule.name}`;
    const filtered = (node: CfnResource): NagRuleResult => {
      const result = rule(node);
      if (result === NagRuleCompliance.NON_COMPLIANT) return acceptedBy(ruleId, undefined, node) ? NagRuleCompliance.COMPLIANT : result;
      if (Array.isArray(result)) {
        const open = result.filter((f) => !acceptedBy(ruleId, f, node));
        return open.length ? open : NagRuleCompliance.COMPLIANT;
      }
      return result;
    };
    Object.defineProperty(filtered, 'name', { value: rule.name });
    super.applyRule({ ...params, rule: filtered });
  }
}
