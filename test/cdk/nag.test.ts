import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { GleanerNagChecks, NAG_SUPPRESSIONS } from '../../lib/nag-suppressions.js';
import { buildGleaner, type GleanerProps } from '../../lib/gleaner.js';
import { routes } from '../../functions/routes.js';
import { cleanupSynth, newApp } from './synth-app.js';

interface Violation { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }

/**
 * Synthesizes with the cdk-nag AwsSolutions pack (as bin/app.ts does) and aws-cdk-lib's built-in
 * CloudFormation template validation (as `cdk synth` does; the other cdk tests leave it out) and
 * returns what they report.
 */
function nagFindings(props: Partial<GleanerProps> = {}): string[] {
  const app = newApp({}, { validation: true });
  buildGleaner(app, { stage: 'test', ...props });
  Validations.of(app).addPlugins(new GleanerNagChecks(app));
  let failed: unknown;
  try {
    app.synth();
  } catch (e) {
    failed = e;
  }
  const report = join(app.outdir, 'validation-report.json');
  if (!existsSync(report)) {
    if (failed) throw failed;
    return [];
  }
  const r = JSON.parse(readFileSync(report, 'utf8')) as { pluginReports: { violations: Violation[] }[] };
  return r.pluginReports.flatMap((p) => p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${v.severity} ${v.ruleName} at ${c.constructPath}`)));
}

afterAll(cleanupSynth);

describe('cdk-nag AwsSolutions', () => {
  it('reports nothing for the whole app (nested stacks included) beyond the justified suppressions', () => {
    expect(nagFindings()).toEqual([]);
  });

  it('reports nothing either when account and region are known (ARNs then carry literal partition and region)', () => {
    expect(nagFindings({ env: { account: '123456789012', region: 'eu-west-1' }, bedrockModelId: 'anthropic.claude-3-haiku-20240307-v1:0' })).toEqual([]);
  });

  it('reports nothing with an extraction model, foundation model or cross-region inference profile', () => {
    expect(nagFindings({ env: { account: '123456789012', region: 'eu-west-1' }, extractionModelId: 'anthropic.claude-3-haiku-20240307-v1:0' })).toEqual([]);
    expect(nagFindings({ extractionModelId: 'us.anthropic.claude-3-5-haiku-20241022-v1:0' })).toEqual([]);
  });

  it('keeps every suppression justified, in one list', () => {
    for (const s of NAG_SUPPRESSIONS) {
      expect(s.id).toMatch(/^AwsSolutions-[A-Z]+\d+$/);
      expect(s.reason.length, s.id).toBeGreaterThan(40);
    }
  });

  it("runs aws-cdk-lib's CloudFormation template validation too (a property CloudFormation does not know is a finding)", () => {
    const app = newApp({}, { validation: true });
    new CfnResource(new Stack(app, 'Probe'), 'Queue', { type: 'AWS::SQS::Queue', properties: { VisibilityTimeout: 30, NoSuchProperty: 1 } });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(() => app.synth()).toThrow(/NoSuchProperty.*CloudFormation Validate/);
    } finally {
      errors.mockRestore();
    }
    const r = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { pluginName: string; violations: Violation[] }[] };
    const found = r.pluginReports.flatMap((p) => p.violations.flatMap((v) => v.violatingConstructs.map((c) => `${p.pluginName} ${v.ruleName} at ${c.constructPath}`)));
    expect(found).toEqual(['CloudFormation Validate F3002 at Probe/Queue']);
  });

  it('still reports a finding no suppression covers (the checks are live)', () => {
    const app = newApp();
    const g = buildGleaner(app, { stage: 'test', routes: routes.filter((r) => r.id === 'info.get') });
    Object.values(g.api.functions)[0]!.addToRolePolicy(new PolicyStatement({ actions: ['sqs:*'], resources: ['*'] }));
    Validations.of(app).addPlugins(new GleanerNagChecks(app));
    expect(() => app.synth()).toThrow();
    const r = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8')) as { pluginReports: { violations: Violation[] }[] };
    const ids = r.pluginReports.flatMap((p) => p.violations.map((v) => v.ruleName));
    expect(ids).toEqual(expect.arrayContaining(['AwsSolutions-IAM5[Action::sqs:*]', 'AwsSolutions-IAM5[Resource::*]']));
  });
});
