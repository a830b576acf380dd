import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { REPO_ROOT } from '../../lib/gleaner-function.js';
import { buildGleaner, type Gleaner, type GleanerProps } from '../../lib/gleaner.js';

// Same feature flags as `cdk synth` (cdk.json), bundling skipped (DESIGN.md habit 11).
export const cdkJson = JSON.parse(readFileSync(join(REPO_ROOT, 'cdk.json'), 'utf8')) as { context: Record<string, unknown> };
const outdirs: string[] = [];

/**
 * A fresh app in its own outdir (removed by cleanupSynth). aws-cdk-lib's built-in CloudFormation
 * template validation (a WebAssembly rule engine run on every synth: about 3 s to start in each
 * process, then 1 s a synth) is off unless `validation` asks for it: the cdk-nag tests run it on
 * every configuration they check and assert it reports nothing (nag.test.ts), and `cdk synth`
 * runs it for real. With it on everywhere it was a third of the cdk tests' CPU.
 */
export function newApp(context: Record<string, unknown> = {}, opts: { validation?: boolean } = {}): App {
  const outdir = mkdtempSync(join(tmpdir(), 'gleaner-cdk-'));
  outdirs.push(outdir);
  return new App({ context: { ...cdkJson.context, 'aws:cdk:bundling-stacks': [], ...context }, outdir, builtinCloudFormationValidation: opts.validation ?? false });
}

export function synthApp(props: Partial<GleanerProps> = {}, context: Record<string, unknown> = {}): Gleaner & { app: App } {
  const app = newApp(context);
  return { app, ...buildGleaner(app, { stage: 'test', ...props }) };
}

export function cleanupSynth(): void {
  for (const d of outdirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

const templates = new WeakMap<Stack, Template>();
/** The template of the stack (top-level or nested) that holds `c`. */
export function templateOf(c: IConstruct): Template {
  const stack = Stack.of(c);
  let t = templates.get(stack);
  if (!t) templates.set(stack, (t = Template.fromStack(stack)));
  return t;
}

/** Every stack in the app, nested ones included. */
export const allStacks = (app: App): Stack[] => app.node.findAll().filter((c): c is Stack => Stack.isStack(c));
export const nestedStacks = (app: App): NestedStack[] => allStacks(app).filter((s): s is NestedStack => NestedStack.isNestedStack(s));

/** Logical id of a construct's CloudFormation resource within its own stack. */
export const logicalId = (c: IConstruct): string => Stack.of(c).getLogicalId(c.node.defaultChild as never);
