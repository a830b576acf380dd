import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { IConstruct } from 'constructs';
import { afterAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/config.js';
import { workers } from '../../functions/routes.js';
import { ContextError, readDeployOptions } from '../../lib/context.js';
import { cleanupSynth, synthApp, templateOf } from './synth-app.js';

// `-c extractionModelId=` (model extraction, the json format): every function learns the model
// (the API answers 422 model_not_configured without it), and only the runs worker, where pages
// are extracted, may invoke it, on that model alone.

const logicalId = (c: IConstruct) => Stack.of(c).getLogicalId(c.node.defaultChild as CfnFunction);
type Statement = { Action: string | string[]; Resource: unknown };

function invokeResources(template: Template, fnId: string): unknown[] {
  const fn = template.findResources('AWS::Lambda::Function')[fnId]!;
  const role = fn.Properties.Role['Fn::GetAtt'][0] as string;
  return Object.values(template.findResources('AWS::IAM::Policy'))
    .filter((p) => (p.Properties.Roles as unknown[]).some((r) => JSON.stringify(r) === JSON.stringify({ Ref: role })))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[])
    .filter((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).includes('bedrock:InvokeModel'))
    .flatMap((s) => (Array.isArray(s.Resource) ? s.Resource : [s.Resource]));
}

afterAll(cleanupSynth);

describe('-c extractionModelId', () => {
  it('grants InvokeModel on that foundation model to the runs worker only, and tells every function', () => {
    const g = synthApp({ env: { account: '123456789012', region: 'eu-west-1' }, extractionModelId: 'anthropic.claude-3-haiku-20240307-v1:0' });
    const wk = Template.fromStack(g.workers);
    for (const w of workers) {
      const resources = invokeResources(wk, logicalId(g.workers.functions[w.id]));
      if (w.id === 'runs') expect(resources).toEqual(['arn:aws:bedrock:eu-west-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0']);
      else if (!w.grants.includes('bedrock')) expect(resources).toEqual([]);
    }
    for (const t of [wk, ...Object.values(g.api.groups).map((s) => templateOf(s))]) {
      for (const fn of Object.values(t.findResources('AWS::Lambda::Function'))) {
        const vars = fn.Properties.Environment?.Variables as Record<string, unknown> | undefined;
        if (vars?.[ENV.mode] === 'aws') expect(vars[ENV.extractionModel]).toBe('anthropic.claude-3-haiku-20240307-v1:0');
      }
    }
  });

  it('for a cross-region inference profile, grants the profile here and its one model in any region', () => {
    const g = synthApp({ env: { account: '123456789012', region: 'us-east-1' }, extractionModelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' });
    const resources = invokeResources(Template.fromStack(g.workers), logicalId(g.workers.functions.runs));
    expect([...resources].sort()).toEqual([
      'arn:aws:bedrock:*::foundation-model/anthropic.claude-3-5-haiku-20241022-v1:0',
      'arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-3-5-haiku-20241022-v1:0',
    ]);
  });

  it('grants nothing and sets nothing without it', () => {
    const g = synthApp({ env: { account: '123456789012', region: 'eu-west-1' } });
    const wk = Template.fromStack(g.workers);
    expect(invokeResources(wk, logicalId(g.workers.functions.runs))).toEqual([]);
    const vars = wk.findResources('AWS::Lambda::Function')[logicalId(g.workers.functions.runs)]!.Properties.Environment.Variables as Record<string, unknown>;
    expect(vars[ENV.extractionModel]).toBeUndefined();
  });

  it('refuses a value that is not a model id, profile id or ARN', () => {
    expect(() => readDeployOptions((k) => (k === 'extractionModelId' ? 'not a model id!' : undefined))).toThrow(ContextError);
    expect(readDeployOptions((k) => (k === 'extractionModelId' ? 'amazon.nova-lite-v1:0' : undefined)).extractionModelId).toBe('amazon.nova-lite-v1:0');
  });
});
