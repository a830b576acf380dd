import { readdirSync } from 'node:fs';
import { NestedStack, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV, ORIGIN_VERIFY_HEADER } from '../../functions/config.js';
import { routes, workers } from '../../functions/routes.js';
import { ContextError, DEFAULT_MAX_CONCURRENCY, readDeployOptions } from '../../lib/context.js';
import { WAF_MANAGED_GROUPS } from '../../lib/edge.js';
import { API_5XX_PERCENT } from '../../lib/ops-stack.js';
import { VISIBILITY_TIMEOUT_FACTOR } from '../../lib/workers-stack.js';
import { buildGleaner } from '../../lib/gleaner.js';
import { allStacks, cleanupSynth, logicalId, nestedStacks, newApp, synthApp, templateOf } from './synth-app.js';

/** CloudFormation allows 500 resources per stack; we keep half of it free for growth. */
const MAX_RESOURCES_PER_STACK = 250;
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const CERT = 'arn:aws:acm:us-east-1:123456789012:certificate/0f6c3f5e-1111-2222-3333-444455556666';
const ONE_ROUTE = [routes.find((r) => r.id === 'info.get')!];

let g: ReturnType<typeof synthApp>;
let ops: Template;
beforeAll(() => {
  g = synthApp({ alarmEmail: 'ops@example.com' });
  ops = templateOf(g.ops);
});
afterAll(cleanupSynth);

describe('CloudFormation limits', () => {
  it(`keeps every stack, nested ones included, at or under ${MAX_RESOURCES_PER_STACK} resources`, () => {
    const counts = Object.fromEntries(allStacks(g.app).map((s) => [s.node.path, Object.keys(templateOf(s).toJSON().Resources).length]));
    expect(Object.keys(counts).length).toBeGreaterThan(4);
    for (const [path, n] of Object.entries(counts)) expect(n, path).toBeLessThanOrEqual(MAX_RESOURCES_PER_STACK);
  });

  it('writes every nested stack template into the assembly, and the API routes live in them', () => {
    const nested = nestedStacks(g.app);
    expect(nested.length).toBeGreaterThan(1);
    const files = readdirSync(g.app.outdir).filter((f) => f.endsWith('.nested.template.json'));
    expect(files).toHaveLength(nested.length);
    const routeCount = nested.reduce((n, s) => n + Object.keys(templateOf(s).findResources('AWS::ApiGatewayV2::Route')).length, 0);
    expect(routeCount).toBe(routes.filter((r) => !r.stream).length); // streamed rows are REST API methods (stream-api.ts)
  });

  it('keeps top-level stack dependencies acyclic: Data <- Workers <- Api <- Ops', () => {
    const top = allStacks(g.app).filter((s) => !NestedStack.isNestedStack(s));
    const order: Stack[] = [];
    const visit = (s: Stack, path: Stack[]) => {
      if (path.includes(s)) throw new Error(`dependency cycle: ${[...path, s].map((x) => x.stackName).join(' -> ')}`);
      if (order.includes(s)) return;
      for (const d of s.dependencies) visit(d, [...path, s]);
      order.push(s);
    };
    for (const s of top) visit(s, []);
    expect(order.map((s) => s.stackName)).toEqual(['Gleaner-test-Data', 'Gleaner-test-Workers', 'Gleaner-test-Api', 'Gleaner-test-Ops']);
  });
});

describe('alarms', () => {
  const alarmsByDescription = () => Object.values(ops.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties as Record<string, any>);

  it('alarms on each worker DLQ, errors and throttles, and the 5xx rate of the API and of the streamed-routes API', () => {
    const alarms = alarmsByDescription();
    expect(alarms).toHaveLength(workers.length * 3 + 2);
    for (const w of workers) {
      const dlq = alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && JSON.stringify(a.Dimensions).includes(logicalId(g.workers.deadLetterQueues[w.id])));
      expect(dlq, `${w.id} DLQ alarm`).toMatchObject({ Threshold: 0, ComparisonOperator: 'GreaterThanThreshold' });
      for (const metric of ['Errors', 'Throttles']) {
        const a = alarms.find((x) => x.MetricName === metric && x.Namespace === 'AWS/Lambda' && JSON.stringify(x.Dimensions).includes(logicalId(g.workers.functions[w.id])));
        expect(a, `${w.id} ${metric} alarm`).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      }
    }
    const api = alarms.find((a) => a.Metrics && JSON.stringify(a.Metrics).includes('"MetricName":"5xx"'))!;
    expect(api.Threshold).toBe(API_5XX_PERCENT);
    expect(JSON.stringify(api.Metrics)).toContain('"MetricName":"Count"');
    // The REST API (exports) reports 5XXError under AWS/ApiGateway by ApiName.
    const streams = alarms.find((a) => a.Metrics && JSON.stringify(a.Metrics).includes('"MetricName":"5XXError"'))!;
    expect(streams.Threshold).toBe(API_5XX_PERCENT);
    expect(JSON.stringify(streams.Metrics)).toContain('"MetricName":"Count"');
  });

  it('notifies one SNS topic on ALARM and on OK for every alarm, and subscribes -c alarmEmail', () => {
    const topic = { Ref: logicalId(g.ops.topic) };
    for (const a of alarmsByDescription()) {
      expect(a.AlarmActions).toEqual([topic]);
      expect(a.OKActions).toEqual([topic]);
    }
    ops.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: topic });
    ops.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
    // CloudWatch may use the topic's key (it cannot use the AWS managed aws/sns key).
    ops.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' } })]) },
    });
  });

  it('has no email subscription without -c alarmEmail', () => {
    const bare = synthApp({ routes: ONE_ROUTE });
    templateOf(bare.ops).resourceCountIs('AWS::SNS::Subscription', 0);
    templateOf(bare.ops).resourceCountIs('AWS::SNS::Topic', 1);
  });
});

describe('outputs', () => {
  it('outputs what the README tells an operator to use', () => {
    expect(Object.keys(templateOf(g.data).findOutputs('*'))).toEqual(expect.arrayContaining(['TableName', 'Region', 'ResultsBucketName', 'RawBucketName']));
    expect(Object.keys(templateOf(g.api).findOutputs('*'))).toEqual(expect.arrayContaining(['ApiUrl', 'ConsoleUrl', 'McpUrl', 'DistributionDomainName']));
    expect(Object.keys(ops.findOutputs('*'))).toContain('AlarmTopicArn');
    expect(templateOf(g.data).findOutputs('TableName').TableName!.Value).toEqual({ Ref: logicalId(g.data.table) });
    expect(templateOf(g.data).findOutputs('Region').Region!.Value).toEqual({ Ref: 'AWS::Region' });
  });
});

describe('API reachable only through CloudFront', () => {
  it('sends a generated secret header to the origin and gives every API function the same secret', () => {
    const dist = templateOf(g.api).findResources('AWS::CloudFront::Distribution');
    const config = Object.values(dist)[0]!.Properties.DistributionConfig;
    const header = config.Origins[0].OriginCustomHeaders.find((h: { HeaderName: string }) => h.HeaderName === ORIGIN_VERIFY_HEADER);
    const secretRef = JSON.stringify(header.HeaderValue);
    expect(secretRef).toContain('{{resolve:secretsmanager:');
    expect(secretRef).toContain(logicalId(g.api.originSecret));
    templateOf(g.api).hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ PasswordLength: 48 }) });
    expect(config.DefaultCacheBehavior.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    for (const fn of Object.values(g.api.functions)) {
      const env = templateOf(fn).findResources('AWS::Lambda::Function')[logicalId(fn)]!.Properties.Environment.Variables;
      expect(JSON.stringify(env[ENV.originSecret])).toContain('{{resolve:secretsmanager:');
    }
  });
});

describe('worker concurrency', () => {
  it('caps every worker event source with a safe default (runs: a handful of Chromium browsers)', () => {
    expect(DEFAULT_MAX_CONCURRENCY.runs).toBeLessThanOrEqual(10);
    const wk = templateOf(g.workers);
    for (const w of workers) {
      wk.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        FunctionName: { Ref: logicalId(g.workers.functions[w.id]) },
        ScalingConfig: { MaximumConcurrency: DEFAULT_MAX_CONCURRENCY[w.id] },
      });
      const q = wk.findResources('AWS::SQS::Queue')[logicalId(g.workers.queues[w.id])]!.Properties;
      expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * w.timeoutSeconds);
      expect(q.VisibilityTimeout).toBeLessThanOrEqual(12 * 3600); // SQS maximum
    }
  });

  it('takes -c runsConcurrency= and friends, and refuses values Lambda would reject', () => {
    const opts = readDeployOptions((k) => ({ runsConcurrency: '3', deliveriesConcurrency: '50' })[k as string]);
    expect(opts.maxConcurrency).toEqual({ ...DEFAULT_MAX_CONCURRENCY, runs: 3, deliveries: 50 });
    for (const bad of ['1', '1001', 'lots', '2.5']) {
      expect(() => readDeployOptions((k) => (k === 'runsConcurrency' ? bad : undefined))).toThrow(ContextError);
    }
    const t = templateOf(synthApp({ routes: ONE_ROUTE, maxConcurrency: { runs: 3 } }).workers);
    t.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 3 } });
  });
});

describe('-c publicUrl', () => {
  it('is refused without a certificate, with a message that says what to add, before any stack is built', () => {
    expect(() => synthApp({ routes: ONE_ROUTE, publicUrl: 'https://scrape.example.com' })).toThrow(/needs -c certificateArn=arn:aws:acm:us-east-1/);
    const app = newApp();
    expect(() => buildGleaner(app, { stage: 'test', publicUrl: 'https://scrape.example.com' })).toThrow(ContextError);
    expect(app.node.children).toHaveLength(0); // no minutes of bundling before the refusal
  });

  it('is refused with a certificate outside us-east-1 or a URL CloudFront cannot serve', () => {
    expect(() => synthApp({ routes: ONE_ROUTE, publicUrl: 'https://scrape.example.com', certificateArn: CERT.replace('us-east-1', 'eu-west-1') })).toThrow(/us-east-1/);
    expect(() => synthApp({ routes: ONE_ROUTE, publicUrl: 'https://scrape.example.com/api', certificateArn: CERT })).toThrow(ContextError);
    expect(() => synthApp({ routes: ONE_ROUTE, publicUrl: 'http://scrape.example.com', certificateArn: CERT })).toThrow(ContextError);
  });

  it('wires the certificate and the alias into CloudFront, and the URLs use the domain', () => {
    const pg = synthApp({ routes: ONE_ROUTE, publicUrl: 'https://scrape.example.com/', certificateArn: CERT });
    const t = templateOf(pg.api);
    t.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['scrape.example.com'],
        ViewerCertificate: { AcmCertificateArn: CERT, MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' },
      }),
    });
    expect(t.findOutputs('ApiUrl').ApiUrl!.Value).toBe('https://scrape.example.com/v1');
    const fn = Object.values(pg.api.functions)[0]!;
    expect(templateOf(fn).findResources('AWS::Lambda::Function')[logicalId(fn)]!.Properties.Environment.Variables[ENV.publicUrl]).toBe('https://scrape.example.com');
  });
});

describe('-c waf', () => {
  it('is refused unless the stage deploys to us-east-1 (where CloudFront web ACLs live)', () => {
    expect(() => synthApp({ routes: ONE_ROUTE, waf: { create: true, rateLimit: 2000 } })).toThrow(/us-east-1/);
    expect(() => synthApp({ routes: ONE_ROUTE, waf: { create: true, rateLimit: 2000 }, env: { account: '123456789012', region: 'eu-west-1' } })).toThrow(/webAclArn/);
  });

  it('creates a CLOUDFRONT web ACL with AWS managed rule groups and a rate rule, attached to the distribution', () => {
    const pg = synthApp({ routes: ONE_ROUTE, waf: { create: true, rateLimit: 1500 }, env: { account: '123456789012', region: 'us-east-1' } });
    const t = templateOf(pg.api);
    const acl = Object.entries(t.findResources('AWS::WAFv2::WebACL'));
    expect(acl).toHaveLength(1);
    const [aclId, { Properties: p }] = acl[0]!;
    expect(p.Scope).toBe('CLOUDFRONT');
    expect(p.Rules.find((r: any) => r.Statement.RateBasedStatement)?.Statement.RateBasedStatement).toEqual({ Limit: 1500, AggregateKeyType: 'IP' });
    const groups = p.Rules.map((r: any) => r.Statement.ManagedRuleGroupStatement?.Name).filter(Boolean);
    expect(groups).toEqual(WAF_MANAGED_GROUPS);
    t.hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ WebACLId: { 'Fn::GetAtt': [aclId, 'Arn'] } }) });
  });

  it('attaches an existing web ACL with -c webAclArn in any region', () => {
    const arn = 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/edge/11111111-2222-3333-4444-555555555555';
    const opts = readDeployOptions((k) => (k === 'webAclArn' ? arn : undefined));
    const pg = synthApp({ routes: ONE_ROUTE, waf: opts.waf, env: { account: '123456789012', region: 'eu-west-1' } });
    templateOf(pg.api).hasResourceProperties('AWS::CloudFront::Distribution', { DistributionConfig: Match.objectLike({ WebACLId: arn }) });
    expect(() => readDeployOptions((k) => (k === 'webAclArn' ? arn.replace('us-east-1', 'eu-west-1') : undefined))).toThrow(ContextError);
    expect(() => readDeployOptions((k) => ({ waf: 'true', webAclArn: arn })[k as string])).toThrow(ContextError);
  });
});
