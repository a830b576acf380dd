import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { REPO_ROOT, pascal } from '../../lib/gleaner-function.js';
import { buildGleaner } from '../../lib/gleaner.js';

/**
 * The synthesized Gleaner app read back as plain CloudFormation: every stack and nested stack
 * template in the cloud assembly, with intrinsic functions resolved to fake but consistent
 * values (one account, one region; a resource's name is its logical id). Used to find a
 * function's execution role and its IAM statements without depending on how lib/ arranges
 * stacks: functions are found by description or construct path, policies by the role they attach to.
 */
export const ACCOUNT = '123456789012';
export const REGION = 'us-east-1';

type Json = unknown;
interface Resource { Type: string; Properties?: Record<string, Json>; Metadata?: Record<string, Json> }
interface Template { Resources?: Record<string, Resource>; Outputs?: Record<string, { Value: Json; Export?: { Name: Json } }>; Parameters?: Record<string, Json> }
interface Doc { file: string; template: Template; parent?: { doc: Doc; logicalId: string } }

export interface Statement { Effect: 'Allow' | 'Deny'; Action: string | string[]; Resource: string | string[]; Condition?: Record<string, Record<string, unknown>> }

export interface FunctionRole {
  /** Logical id and file of the Lambda function, for messages. */
  functionId: string;
  roleArn: string;
  statements: Statement[];
  /** The function's environment with every reference resolved. */
  environment: Record<string, string>;
}

const UNRESOLVED = '<unresolved>';

export class SynthesizedApp {
  private readonly docs: Doc[] = [];

  private constructor(outdir: string) {
    // Every template anywhere in the assembly (nested stacks sit beside their parents; stages
    // get assembly-* subdirectories).
    const files = (readdirSync(outdir, { recursive: true }) as string[]).filter((f) => f.endsWith('.template.json'));
    const byFile = new Map<string, Doc>();
    for (const rel of files) {
      const f = rel.split(/[\\/]/).pop()!;
      const d: Doc = { file: f, template: JSON.parse(readFileSync(join(outdir, rel), 'utf8')) as Template };
      byFile.set(f, d);
      this.docs.push(d);
    }
    // Nested stacks: the parent's AWS::CloudFormation::Stack names its template asset file.
    for (const d of this.docs) {
      for (const [id, r] of Object.entries(d.template.Resources ?? {})) {
        if (r.Type !== 'AWS::CloudFormation::Stack') continue;
        const path = r.Metadata?.['aws:asset:path'];
        const child = typeof path === 'string' ? byFile.get(path) : undefined;
        if (child) child.parent = { doc: d, logicalId: id };
      }
    }
  }

  /** Synthesizes the app (bundling skipped) into a temporary outdir that is removed afterwards. */
  static synth(): SynthesizedApp {
    const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
    const outdir = mkdtempSync(join(tmpdir(), 'gleaner-iam-'));
    try {
      // The template's CloudFormation validation is the cdk-nag tests' (test/cdk/synth-app.ts).
      const app = new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [] }, outdir, builtinCloudFormationValidation: false });
      buildGleaner(app, { stage: 'test' });
      app.synth();
      return new SynthesizedApp(outdir);
    } finally {
      if (existsSync(outdir)) rmSync(outdir, { recursive: true, force: true });
    }
  }

  /** Resolves CloudFormation intrinsics in `v` within `doc`. */
  resolve(doc: Doc, v: Json): Json {
    if (Array.isArray(v)) return v.map((x) => this.resolve(doc, x));
    if (!v || typeof v !== 'object') return v;
    const o = v as Record<string, Json>;
    const keys = Object.keys(o);
    if (keys.length === 1) {
      const k = keys[0]!;
      const a = o[k];
      if (k === 'Ref') return this.ref(doc, String(a));
      if (k === 'Fn::GetAtt') {
        const [id, attr] = Array.isArray(a) ? (a as string[]) : String(a).split(/\.(.*)/);
        return this.getAtt(doc, id!, String(attr));
      }
      if (k === 'Fn::Join') {
        const [sep, parts] = a as [string, Json[]];
        return (this.resolve(doc, parts) as Json[]).map(String).join(sep);
      }
      if (k === 'Fn::Select') {
        const [i, list] = a as [Json, Json];
        return (this.resolve(doc, list) as Json[])[Number(this.resolve(doc, i))];
      }
      if (k === 'Fn::Split') {
        const [sep, s] = a as [string, Json];
        return String(this.resolve(doc, s)).split(sep);
      }
      if (k === 'Fn::Sub') {
        const [tpl, vars] = (Array.isArray(a) ? a : [a, {}]) as [string, Record<string, Json>];
        return tpl.replace(/\$\{([^}]+)\}/g, (_m, name: string) => {
          if (name in vars) return String(this.resolve(doc, vars[name]));
          if (name.includes('.')) return String(this.getAtt(doc, ...(name.split(/\.(.*)/) as [string, string])));
          return String(this.ref(doc, name));
        });
      }
      if (k === 'Fn::ImportValue') return this.importValue(String(this.resolve(doc, a)));
      if (k === 'Fn::GetStackOutput') {
        const { StackName, OutputName } = this.resolve(doc, a) as { StackName: string; OutputName: string };
        const src = this.docs.find((d) => d.file === `${StackName}.template.json`);
        const out = src?.template.Outputs?.[OutputName];
        return out ? this.resolve(src!, out.Value) : UNRESOLVED;
      }
    }
    return Object.fromEntries(Object.entries(o).map(([kk, vv]) => [kk, this.resolve(doc, vv)]));
  }

  private ref(doc: Doc, id: string): Json {
    const pseudo: Record<string, string> = { 'AWS::Partition': 'aws', 'AWS::Region': REGION, 'AWS::AccountId': ACCOUNT, 'AWS::URLSuffix': 'amazonaws.com', 'AWS::StackName': doc.file.replace('.template.json', '') };
    if (id in pseudo) return pseudo[id];
    const r = doc.template.Resources?.[id];
    if (!r) {
      // A nested stack parameter: its value is what the parent passes.
      if (doc.parent && doc.template.Parameters?.[id] !== undefined) {
        const parentRes = doc.parent.doc.template.Resources![doc.parent.logicalId]!;
        const passed = (parentRes.Properties?.Parameters as Record<string, Json> | undefined)?.[id];
        if (passed !== undefined) return this.resolve(doc.parent.doc, passed);
      }
      return UNRESOLVED;
    }
    const named = ['TableName', 'BucketName', 'QueueName', 'RoleName', 'Name'].map((k) => r.Properties?.[k]).find((x) => x !== undefined);
    if (named !== undefined && r.Type !== 'AWS::SQS::Queue') return this.resolve(doc, named);
    switch (r.Type) {
      case 'AWS::S3::Bucket': return id.toLowerCase();
      case 'AWS::SQS::Queue': return `https://sqs.${REGION}.amazonaws.com/${ACCOUNT}/${id}`;
      default: return id;
    }
  }

  private getAtt(doc: Doc, id: string, attr: string): Json {
    if (attr.startsWith('Outputs.')) {
      // A nested stack's output, read from the child template.
      const child = this.docs.find((d) => d.parent?.doc === doc && d.parent.logicalId === id);
      const out = child?.template.Outputs?.[attr.slice('Outputs.'.length)];
      return out ? this.resolve(child!, out.Value) : UNRESOLVED;
    }
    const r = doc.template.Resources?.[id];
    const name = this.ref(doc, id);
    if (!r) return UNRESOLVED;
    if (attr !== 'Arn') return `${String(name)}.${attr}`;
    switch (r.Type) {
      case 'AWS::DynamoDB::Table': return `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${String(name)}`;
      case 'AWS::S3::Bucket': return `arn:aws:s3:::${String(name)}`;
      case 'AWS::SQS::Queue': return `arn:aws:sqs:${REGION}:${ACCOUNT}:${id}`;
      case 'AWS::IAM::Role': return `arn:aws:iam::${ACCOUNT}:role/${id}`;
      case 'AWS::KMS::Key': return `arn:aws:kms:${REGION}:${ACCOUNT}:key/${id}`;
      case 'AWS::Lambda::Function': return `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${id}`;
      case 'AWS::Scheduler::ScheduleGroup': return `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule-group/${id}`;
      default: return `arn:aws:unknown:${REGION}:${ACCOUNT}:${id}`;
    }
  }

  private importValue(name: string): Json {
    for (const d of this.docs) {
      for (const out of Object.values(d.template.Outputs ?? {})) {
        if (out.Export && this.resolve(d, out.Export.Name) === name) return this.resolve(d, out.Value);
      }
    }
    return UNRESOLVED;
  }

  /**
   * The resource policy that also decides a request on `arn`: a KMS key's key policy (KMS
   * consults it on every call; IAM policies count only where it trusts the account), a bucket
   * policy, a queue policy (their TLS-only denies apply to every call).
   */
  resourcePolicy(arn: string): { Version: string; Statement: unknown[] } | undefined {
    const merged: unknown[] = [];
    for (const d of this.docs) {
      for (const [id, r] of Object.entries(d.template.Resources ?? {})) {
        const p = r.Properties ?? {};
        if (r.Type === 'AWS::KMS::Key' && this.getAtt(d, id, 'Arn') === arn) merged.push(...this.statementsOf(d, p.KeyPolicy));
        if (r.Type === 'AWS::S3::BucketPolicy') {
          const bucket = `arn:aws:s3:::${String(this.resolve(d, p.Bucket))}`;
          if (arn === bucket || arn.startsWith(`${bucket}/`)) merged.push(...this.statementsOf(d, p.PolicyDocument));
        }
        if (r.Type === 'AWS::SQS::QueuePolicy') {
          const urls = (this.resolve(d, p.Queues) as Json[]).map(String);
          const arns = urls.map((u) => `arn:aws:sqs:${REGION}:${ACCOUNT}:${u.split('/').pop()}`);
          if (arns.includes(arn)) merged.push(...this.statementsOf(d, p.PolicyDocument));
        }
      }
    }
    return merged.length ? { Version: '2012-10-17', Statement: merged } : undefined;
  }

  private statementsOf(d: Doc, policy: Json): unknown[] {
    const doc = this.resolve(d, policy) as { Statement?: unknown[] } | undefined;
    return doc?.Statement ?? [];
  }

  /**
   * The role of the function serving `handler`: a route row (its description ends with
   * `METHOD path`, or its construct id is `<PascalId>Fn`) or a worker row (`<id> worker`,
   * `<PascalId>Worker`). Searches every stack and nested stack.
   */
  functionRole(target: { routeId: string; method: string; path: string } | { workerId: string }): FunctionRole {
    const wants = 'routeId' in target
      ? { description: `: ${target.method} ${target.path}`, construct: `/${pascal(target.routeId)}Fn/Resource` }
      : { description: `: ${target.workerId} worker`, construct: `/${pascal(target.workerId)}Worker/Resource` };
    const found: { doc: Doc; id: string; r: Resource }[] = [];
    for (const doc of this.docs) {
      for (const [id, r] of Object.entries(doc.template.Resources ?? {})) {
        if (r.Type !== 'AWS::Lambda::Function') continue;
        const desc = String(r.Properties?.Description ?? '');
        const path = String(r.Metadata?.['aws:cdk:path'] ?? '');
        if (desc.endsWith(wants.description) || path.endsWith(wants.construct)) found.push({ doc, id, r });
      }
    }
    if (found.length !== 1) throw new Error(`Expected one function for ${JSON.stringify(target)}, found ${found.length}`);
    const { doc, id, r } = found[0]!;
    const roleArn = String(this.resolve(doc, r.Properties!.Role));
    const statements: Statement[] = [];
    for (const d of this.docs) {
      for (const [rid, res] of Object.entries(d.template.Resources ?? {})) {
        if (res.Type === 'AWS::IAM::Policy') {
          const roles = (this.resolve(d, res.Properties!.Roles) as Json[]).map(String);
          const roleName = roleArn.split('/').pop()!;
          if (roles.includes(roleName) || roles.includes(roleArn)) {
            statements.push(...((this.resolve(d, res.Properties!.PolicyDocument) as { Statement: Statement[] }).Statement));
          }
        }
        if (res.Type === 'AWS::IAM::Role' && String(this.getAtt(d, rid, 'Arn')) === roleArn) {
          for (const p of (res.Properties?.Policies as { PolicyDocument: Json }[] | undefined) ?? []) {
            statements.push(...((this.resolve(d, p.PolicyDocument) as { Statement: Statement[] }).Statement));
          }
        }
      }
    }
    const env = (this.resolve(doc, (r.Properties?.Environment as { Variables?: Json } | undefined)?.Variables ?? {}) ?? {}) as Record<string, Json>;
    return { functionId: `${doc.file}#${id}`, roleArn, statements, environment: Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)])) };
  }
}
