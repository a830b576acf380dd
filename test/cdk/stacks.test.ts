import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { CfnQueue } from 'aws-cdk-lib/aws-sqs';
import type { IConstruct } from 'constructs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV, ORIGIN_VERIFY_HEADER } from '../../functions/config.js';
import { routes, workers, type Route } from '../../functions/routes.js';
import { ROUTE_DEFAULTS } from '../../lib/api-stack.js';
import { RAW_RETENTION_DAYS, RESULT_NONCURRENT_DAYS } from '../../lib/data-stack.js';
import { bundlingOptions, pascal } from '../../lib/gleaner-function.js';
import type { Gleaner } from '../../lib/gleaner.js';
import { VISIBILITY_TIMEOUT_FACTOR } from '../../lib/workers-stack.js';
import { cleanupSynth, synthApp as synth, templateOf } from './synth-app.js';

const STAGE = 'test';
const synthApp = (extra: { routes?: Route[] } = {}): Gleaner => synth({ stage: STAGE, ...extra });

const logicalId = (c: IConstruct) => Stack.of(c).getLogicalId(c.node.defaultChild as CfnFunction | CfnQueue);

interface Statement { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown }

/** Every IAM statement attached to a function's execution role. */
function roleStatements(template: Template, roleLogicalId: string): Statement[] {
  const policies = template.findResources('AWS::IAM::Policy');
  return Object.values(policies)
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: roleLogicalId })))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}
const actionsOf = (statements: Statement[]) => statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]));

function fnRoleLogicalId(template: Template, fnLogicalId: string): string {
  const fn = template.findResources('AWS::Lambda::Function')[fnLogicalId];
  if (!fn) throw new Error(`No function ${fnLogicalId}`);
  return fn.Properties.Role['Fn::GetAtt'][0] as string;
}

let g: Gleaner;
let data: Template;
let wk: Template;
let api: Template;
/** The route-group nested stacks that hold the API's routes and functions. */
let groups: Template[];
/** Resources of one type across all route groups. */
const groupResources = (type: string) => Object.assign({}, ...groups.map((t) => t.findResources(type))) as Record<string, { Properties: Record<string, any> }>;

beforeAll(() => {
  g = synthApp();
  data = Template.fromStack(g.data);
  wk = Template.fromStack(g.workers);
  api = Template.fromStack(g.api);
  groups = Object.values(g.api.groups).map((s) => templateOf(s));
});

afterAll(cleanupSynth);

describe('ApiStack', () => {
  it('has exactly one route per routes row, keyed "METHOD /path": an HTTP API route, or a REST API method for a streamed row', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Route', 0);
    const keys = Object.values(groupResources('AWS::ApiGatewayV2::Route')).map((r) => r.Properties.RouteKey as string);
    expect(keys.sort()).toEqual(routes.filter((r) => !r.stream).map((r) => `${r.method} ${r.path}`).sort());
    expect(Object.keys(api.findResources('AWS::ApiGateway::Method'))).toHaveLength(routes.filter((r) => r.stream).length);
  });

  it('streams exactly the stream: true rows: their REST integration uses STREAM via response-streaming-invocations, every other route is buffered', () => {
    const streamed = routes.filter((r) => r.stream);
    expect(streamed.map((r) => r.id)).toContain('runs.results');
    const methods = Object.values(api.findResources('AWS::ApiGateway::Method'));
    expect(methods).toHaveLength(streamed.length);
    for (const m of methods) {
      const i = m.Properties.Integration;
      expect(i).toMatchObject({ Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST', ResponseTransferMode: 'STREAM', TimeoutInMillis: 900_000 });
      const uri = JSON.stringify(i.Uri);
      expect(uri).toContain('/response-streaming-invocations');
      expect(uri).not.toContain('2015-03-31');
    }
    // Each streamed row's method invokes its own function (its ARN arrives from the nested stack).
    for (const r of streamed) {
      const nestedOutput = new RegExp(`"Outputs\\.\\w*${pascal(r.id)}Fn\\w*Arn"`);
      expect(JSON.stringify(methods.map((m) => m.Properties.Integration.Uri))).toMatch(nestedOutput);
      expect(g.api.functions[r.id]!.timeout?.toSeconds()).toBe(900);
    }
    // The HTTP API's integrations (everything else) stay buffered: they have no transfer mode at all.
    for (const i of Object.values(groupResources('AWS::ApiGatewayV2::Integration'))) expect(i.Properties.ResponseTransferMode).toBeUndefined();
    // API Gateway may invoke the streamed functions (InvokeFunction covers InvokeWithResponseStream).
    const perms = Object.values(api.findResources('AWS::Lambda::Permission')).filter((p) => p.Properties.Principal === 'apigateway.amazonaws.com');
    expect(perms.length).toBeGreaterThan(0);
    expect(perms).toHaveLength(streamed.length); // the deployed stage only, no test-invoke grant
    for (const p of perms) expect(p.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', Principal: 'apigateway.amazonaws.com' });
  });

  it('sends the streamed paths from CloudFront to the REST API stage with the origin secret, and the rest to the HTTP API', () => {
    const dist = Object.values(api.findResources('AWS::CloudFront::Distribution'))[0]!.Properties.DistributionConfig;
    const behaviours = dist.CacheBehaviors as { PathPattern: string; TargetOriginId: string; AllowedMethods: string[] }[];
    expect(behaviours.map((b) => b.PathPattern).sort()).toEqual(routes.filter((r) => r.stream).map((r) => r.path.replace(/\{[^}]+\}/g, '*')).sort());
    const origins = dist.Origins as { Id: string; OriginPath?: string; OriginCustomHeaders?: { HeaderName: string }[] }[];
    for (const b of behaviours) {
      const o = origins.find((x) => x.Id === b.TargetOriginId)!;
      expect(o.OriginPath).toBe('/api');
      expect(o.OriginCustomHeaders?.map((h) => h.HeaderName)).toContain(ORIGIN_VERIFY_HEADER);
    }
    expect(dist.DefaultCacheBehavior.TargetOriginId).not.toBe(behaviours[0]!.TargetOriginId);
    api.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: 'api',
      AccessLogSetting: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.requestId') },
      MethodSettings: Match.arrayWith([Match.objectLike({ ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() })]),
    });
    api.hasResourceProperties('AWS::ApiGateway::GatewayResponse', { ResponseType: 'MISSING_AUTHENTICATION_TOKEN', StatusCode: '404' });
  });

  it('has one Lambda per route, sized from the row (defaults 512 MB / 29 s), arm64 on nodejs22.x', () => {
    const fns = groupResources('AWS::Lambda::Function');
    expect(Object.keys(fns)).toHaveLength(routes.length);
    for (const r of routes) {
      const p = templateOf(g.api.functions[r.id]!).findResources('AWS::Lambda::Function')[logicalId(g.api.functions[r.id]!)]!.Properties;
      expect(p.Description).toBe(`Gleaner ${STAGE}: ${r.method} ${r.path}`);
      expect(p.MemorySize).toBe(r.memoryMb ?? ROUTE_DEFAULTS.memoryMb);
      expect(p.Timeout).toBe(r.timeoutSeconds ?? ROUTE_DEFAULTS.timeoutSeconds);
      expect(p.Runtime).toBe('nodejs22.x');
      expect(p.Architectures).toEqual(['arm64']);
    }
  });

  it('routes each row to its own function', () => {
    for (const t of groups) {
      const integrations = t.findResources('AWS::ApiGatewayV2::Integration');
      for (const [, route] of Object.entries(t.findResources('AWS::ApiGatewayV2::Route'))) {
        const integrationId = (route.Properties.Target['Fn::Join'][1] as unknown[])[1] as { Ref: string };
        const uri = integrations[integrationId.Ref]!.Properties.IntegrationUri;
        const row = routes.find((r) => `${r.method} ${r.path}` === route.Properties.RouteKey)!;
        expect(uri).toEqual({ 'Fn::GetAtt': [logicalId(g.api.functions[row.id]!), 'Arn'] });
        expect(templateOf(g.api.functions[row.id]!)).toBe(t);
      }
      t.allResourcesProperties('AWS::ApiGatewayV2::Integration', { IntegrationType: 'AWS_PROXY', PayloadFormatVersion: '2.0' });
    }
  });

  it('serves the $default stage with access logging and throttling defaults', () => {
    api.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    api.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      AccessLogSettings: { DestinationArn: Match.anyValue(), Format: Match.stringLikeRegexp('\\$context.requestId') },
      DefaultRouteSettings: { ThrottlingRateLimit: Match.anyValue(), ThrottlingBurstLimit: Match.anyValue() },
    });
  });

  it('outputs ApiUrl (base_url, ends in /v1), ConsoleUrl and McpUrl', () => {
    const outputs = api.findOutputs('*');
    expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiUrl', 'ConsoleUrl', 'McpUrl']));
    expect(JSON.stringify(outputs.ApiUrl!.Value)).toMatch(/\/v1"\]\]\}$/);
  });

  it('puts one uncached CloudFront domain in front of API, console and MCP (the URLs all use it)', () => {
    api.resourceCountIs('AWS::CloudFront::Distribution', 1);
    api.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: { DefaultCacheBehavior: { ViewerProtocolPolicy: 'redirect-to-https', AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'] } },
    });
    const outputs = api.findOutputs('*');
    for (const k of ['ApiUrl', 'ConsoleUrl', 'McpUrl']) expect(JSON.stringify(outputs[k]!.Value)).toContain('DomainName');
  });

  it('gives a function without grants no data-plane permissions', () => {
    const row = routes.find((r) => r.grants.length === 0)!;
    const t = templateOf(g.api.functions[row.id]!);
    const statements = roleStatements(t, fnRoleLogicalId(t, logicalId(g.api.functions[row.id]!)));
    expect(statements).toEqual([]);
  });

  it('gives table:read + table:write routes the table and nothing else', () => {
    const row = routes.find((r) => r.grants.join() === 'table:read,table:write')!;
    const t = templateOf(g.api.functions[row.id]!);
    const actions = actionsOf(roleStatements(t, fnRoleLogicalId(t, logicalId(g.api.functions[row.id]!))));
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem']));
    expect(actions.filter((a) => !a.startsWith('dynamodb:'))).toEqual([]);
  });
});

describe('DataStack', () => {
  it('has one pay-per-request table with pk/sk, gsi1, gsi2, TTL expires_at and PITR, retained', () => {
    data.resourceCountIs('AWS::DynamoDB::Table', 1);
    data.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      Properties: {
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [1, 2].map((n) => ({
          IndexName: `gsi${n}`,
          KeySchema: [
            { AttributeName: `gsi${n}pk`, KeyType: 'HASH' },
            { AttributeName: `gsi${n}sk`, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        TimeToLiveSpecification: { AttributeName: 'expires_at', Enabled: true },
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      },
    });
  });

  it('blocks public access, encrypts and enforces TLS on every bucket (results, raw, access logs)', () => {
    data.resourceCountIs('AWS::S3::Bucket', 3);
    data.allResourcesProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: Match.anyValue() } }] },
    });
    data.resourceCountIs('AWS::S3::BucketPolicy', 3);
    data.allResourcesProperties('AWS::S3::BucketPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('expires raw scrape logs after 90 days', () => {
    expect(RAW_RETENTION_DAYS).toBe(90);
    data.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: 90, Status: 'Enabled' })]) },
    });
    const raw = data.findResources('AWS::S3::Bucket')[logicalId(g.data.rawBucket)]!;
    expect(JSON.stringify(raw.Properties.LifecycleConfiguration)).toContain('"ExpirationInDays":90');
  });

  it('versions the results bucket and expires noncurrent versions (a deleted result stays recoverable for a while)', () => {
    const results = data.findResources('AWS::S3::Bucket')[logicalId(g.data.resultsBucket)]!.Properties;
    expect(results.VersioningConfiguration).toEqual({ Status: 'Enabled' });
    expect(results.LifecycleConfiguration.Rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Status: 'Enabled', NoncurrentVersionExpiration: { NoncurrentDays: RESULT_NONCURRENT_DAYS }, ExpiredObjectDeleteMarker: true }),
      ]),
    );
    for (const b of [g.data.resultsBucket, g.data.rawBucket]) {
      const p = data.findResources('AWS::S3::Bucket')[logicalId(b)]!.Properties;
      expect(p.LoggingConfiguration.DestinationBucketName).toEqual({ Ref: logicalId(g.data.accessLogsBucket) });
    }
  });

  it('has a rotating KMS key for tenant secrets', () => {
    data.resourceCountIs('AWS::KMS::Key', 1);
    data.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
  });
});

describe('WorkersStack', () => {
  it('gives each worker queue a DLQ with the row maxReceiveCount and a visibility of at least 6x the timeout', () => {
    wk.resourceCountIs('AWS::SQS::Queue', workers.length * 2);
    const queues = wk.findResources('AWS::SQS::Queue');
    for (const w of workers) {
      const q = queues[logicalId(g.workers.queues[w.id])]!.Properties;
      expect(q.RedrivePolicy).toEqual({
        deadLetterTargetArn: { 'Fn::GetAtt': [logicalId(g.workers.deadLetterQueues[w.id]), 'Arn'] },
        maxReceiveCount: w.maxReceiveCount,
      });
      expect(q.VisibilityTimeout).toBeGreaterThanOrEqual(VISIBILITY_TIMEOUT_FACTOR * w.timeoutSeconds);
      expect(q.SqsManagedSseEnabled).toBe(true);
    }
  });

  it('has one Lambda per worker, sized from the row; browser workers on x86_64 (Chromium binary)', () => {
    const fns = wk.findResources('AWS::Lambda::Function');
    expect(Object.keys(fns)).toHaveLength(workers.length);
    for (const w of workers) {
      const p = fns[logicalId(g.workers.functions[w.id])]!.Properties;
      expect(p.MemorySize).toBe(w.memoryMb);
      expect(p.Timeout).toBe(w.timeoutSeconds);
      expect(p.Runtime).toBe('nodejs22.x');
      expect(p.Architectures).toEqual([w.browser ? 'x86_64' : 'arm64']);
    }
  });

  it('consumes each queue with partial batch failure reporting and the row batch size', () => {
    wk.resourceCountIs('AWS::Lambda::EventSourceMapping', workers.length);
    for (const w of workers) {
      wk.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
        EventSourceArn: { 'Fn::GetAtt': [logicalId(g.workers.queues[w.id]), 'Arn'] },
        FunctionName: { Ref: logicalId(g.workers.functions[w.id]) },
        BatchSize: w.batchSize,
        FunctionResponseTypes: ['ReportBatchItemFailures'],
      });
    }
  });

  it('has a schedule group and a role scheduler.amazonaws.com assumes to send to the jobs queue only', () => {
    wk.resourceCountIs('AWS::Scheduler::ScheduleGroup', 1);
    wk.hasResourceProperties('AWS::Scheduler::ScheduleGroup', { Name: `gleaner-${STAGE}` });
    // The daily retention sweep goes to the jobs queue.
    wk.hasResourceProperties('AWS::Scheduler::Schedule', { ScheduleExpression: 'cron(17 3 * * ? *)', Target: { Input: JSON.stringify({ kind: 'storage.sweep' }) } });
    const roles = wk.findResources('AWS::IAM::Role', {
      Properties: {
        AssumeRolePolicyDocument: {
          Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'scheduler.amazonaws.com' } })]),
        },
      },
    });
    expect(Object.keys(roles)).toHaveLength(1);
    const statements = roleStatements(wk, Object.keys(roles)[0]!);
    expect(actionsOf(statements).sort()).toEqual(['sqs:GetQueueAttributes', 'sqs:GetQueueUrl', 'sqs:SendMessage']);
    expect(statements.map((s) => s.Resource)).toEqual([{ 'Fn::GetAtt': [logicalId(g.workers.queues.jobs), 'Arn'] }]);
  });

  it('grants each worker only what its row names (jobs: table, send to queries, runs (run jobs) and jobs, delete results)', () => {
    const jobs = workers.find((w) => w.id === 'jobs')!;
    expect(jobs.grants).not.toContain('kms');
    const statements = roleStatements(wk, fnRoleLogicalId(wk, logicalId(g.workers.functions.jobs)));
    const actions = actionsOf(statements);
    expect(actions.some((a) => a.startsWith('kms:') || a.startsWith('bedrock:') || a.startsWith('scheduler:'))).toBe(false);
    expect(actions.some((a) => a === 's3:GetObject*' || a === 's3:GetObject')).toBe(false);
    const sends = statements.filter((s) => actionsOf([s]).includes('sqs:SendMessage')).flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
    expect(sends).toEqual(expect.arrayContaining([
      { 'Fn::GetAtt': [logicalId(g.workers.queues.queries), 'Arn'] },
      { 'Fn::GetAtt': [logicalId(g.workers.queues.runs), 'Arn'] }, // a run job's fire starts a run
      { 'Fn::GetAtt': [logicalId(g.workers.queues.jobs), 'Arn'] },
      { 'Fn::GetAtt': [logicalId(g.workers.deadLetterQueues.jobs), 'Arn'] }, // dead-letters a record with its reason
    ]));
    expect(sends).toHaveLength(4);
  });

  it('tells each worker its own dead-letter queue and lets it send there (and to no other DLQ)', () => {
    const fns = wk.findResources('AWS::Lambda::Function');
    for (const w of workers) {
      const vars = fns[logicalId(g.workers.functions[w.id])]!.Properties.Environment.Variables as Record<string, unknown>;
      expect(vars[ENV.deadLetterQueue]).toEqual({ Ref: logicalId(g.workers.deadLetterQueues[w.id]) });
      const sends = roleStatements(wk, fnRoleLogicalId(wk, logicalId(g.workers.functions[w.id])))
        .filter((s) => actionsOf([s]).includes('sqs:SendMessage'))
        .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]))
        .map((r) => JSON.stringify(r));
      const dlqs = Object.values(g.workers.deadLetterQueues).map((q) => JSON.stringify({ 'Fn::GetAtt': [logicalId(q), 'Arn'] }));
      expect(sends.filter((r) => dlqs.includes(r))).toEqual([JSON.stringify({ 'Fn::GetAtt': [logicalId(g.workers.deadLetterQueues[w.id]), 'Arn'] })]);
    }
  });

  it('lets only the workers that name bedrock invoke models', () => {
    for (const w of workers) {
      const actions = actionsOf(roleStatements(wk, fnRoleLogicalId(wk, logicalId(g.workers.functions[w.id]))));
      expect(actions.includes('bedrock:InvokeModel')).toBe(w.grants.includes('bedrock'));
      expect(actions.some((a) => a.startsWith('kms:'))).toBe(w.grants.includes('kms'));
    }
  });
});

describe('every function', () => {
  it('gets the runtime environment functions/config.ts reads in aws mode', () => {
    const required = [
      ENV.table, ENV.resultsBucket, ENV.rawBucket, ENV.queueRuns, ENV.queueQueries, ENV.queueDeliveries,
      ENV.queueJobs, ENV.jobsQueueArn, ENV.schedulerGroup, ENV.schedulerRoleArn, ENV.kmsKeyId,
    ];
    for (const t of [wk, ...groups]) {
      for (const fn of Object.values(t.findResources('AWS::Lambda::Function'))) {
        const vars = fn.Properties.Environment.Variables as Record<string, unknown>;
        expect(vars[ENV.mode]).toBe('aws');
        expect(vars[ENV.env]).toBe(STAGE);
        for (const name of required) expect(vars[name], name).toBeDefined();
      }
    }
    for (const fn of Object.values(groupResources('AWS::Lambda::Function'))) {
      expect(fn.Properties.Environment.Variables[ENV.publicUrl]).toBeDefined();
      expect(fn.Properties.Environment.Variables[ENV.originSecret]).toBeDefined();
    }
  });

  it('bundles as ESM for node22 with a require shim, local esbuild, and Chromium only for browser workers', () => {
    for (const browser of [false, true]) {
      const b = bundlingOptions({ browser });
      expect(b.format).toBe('esm');
      expect(b.target).toBe('node22');
      expect(b.banner).toContain('createRequire');
      expect(b.forceDockerBundling).toBe(false);
      expect(b.externalModules).toEqual(['@aws-sdk/client-*']);
      expect(b.nodeModules ?? []).toEqual(browser ? ['@sparticuz/chromium'] : []);
    }
  });
});

describe('grants', () => {
  // A row with grants no current row combines; its handler only needs to exist (bundling is skipped).
  const probe: Route = {
    id: 'probe.get', method: 'GET', path: '/v1/probe/{proxy+}', handler: 'functions/config.ts',
    scope: 'jobs:write', surface: 'api', grants: ['table:read', 'results:write', 'scheduler'],
  };

  it('turns a row into least-privilege statements', () => {
    const pg = synthApp({ routes: [probe] });
    const t = templateOf(pg.api.functions[probe.id]!);
    t.hasResourceProperties('AWS::ApiGatewayV2::Route', { RouteKey: 'GET /v1/probe/{proxy+}' });
    const statements = roleStatements(t, fnRoleLogicalId(t, logicalId(pg.api.functions[probe.id]!)));
    const actions = actionsOf(statements);
    // table:read without table:write
    expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query']));
    expect(actions).not.toContain('dynamodb:PutItem');
    expect(actions).not.toContain('dynamodb:DeleteItem');
    // results:write without results:read
    expect(actions).toEqual(expect.arrayContaining(['s3:PutObject']));
    expect(actions).not.toContain('s3:GetObject*');
    // scheduler: schedules in the group, PassRole on the scheduler role only
    const sched = statements.find((s) => actionsOf([s]).includes('scheduler:CreateSchedule'))!;
    expect(JSON.stringify(sched.Resource)).toContain(':schedule/');
    const pass = statements.find((s) => actionsOf([s]).includes('iam:PassRole'))!;
    expect(pass.Condition).toEqual({ StringEquals: { 'iam:PassedToService': 'scheduler.amazonaws.com' } });
    expect(actions.some((a) => a.startsWith('kms:') || a.startsWith('sqs:') || a.startsWith('bedrock:'))).toBe(false);
  });
});
