import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENV } from '../../functions/config.js';
import { CONTEXT_KEYS, readDeployOptions } from '../../lib/context.js';
import { REPO_ROOT } from '../../lib/gleaner-function.js';
import { allStacks, cleanupSynth, synthApp, templateOf } from './synth-app.js';

// The README's "Deploy to AWS" section is what an operator follows. Everything it names (context
// options, stack outputs, environment variables) must exist in the app it describes.
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const section = readme.slice(readme.indexOf('## Deploy to AWS'), readme.indexOf('\n## ', readme.indexOf('## Deploy to AWS') + 1));
const codeBlocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const commands = codeBlocks.join('\n').split('\n').map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
const deploy = commands.find((c) => c.startsWith('npx cdk deploy'))!;

/** `-c key=value` pairs of one command line. */
const contextOf = (line: string) => Object.fromEntries([...line.matchAll(/-c\s+(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
/** Markdown table rows of the section whose first cell is a backticked name. */
const tableRows = (header: string) => {
  const start = section.indexOf(`| ${header} |`);
  expect(start, `table "${header}" in the deploy section`).toBeGreaterThan(-1);
  const lines = section.slice(start).split('\n').slice(2);
  const end = lines.findIndex((l) => !l.startsWith('|'));
  return lines.slice(0, end === -1 ? undefined : end).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));
};
/** Variables the SDK (not Gleaner's config) reads. */
const AWS_SDK_ENV = ['AWS_REGION', 'AWS_PROFILE'];

let g: ReturnType<typeof synthApp>;
let outputsByStack: Record<string, string[]>;
beforeAll(() => {
  const ctx = contextOf(deploy);
  const options = readDeployOptions((k) => ctx[k]);
  g = synthApp(options);
  outputsByStack = Object.fromEntries(
    allStacks(g.app)
      .filter((s) => !NestedStack.isNestedStack(s))
      // CDK's own cross-stack plumbing is not for users.
      .map((s) => [s.stackName, Object.keys(templateOf(s).findOutputs('*')).filter((o) => !/^(PublishOutput|ExportsOutput)/.test(o))]),
  );
});
afterAll(cleanupSynth);

describe('README deploy section', () => {
  it('deploys all stacks and writes the outputs file the later commands read', () => {
    expect(deploy).toMatch(/--all\b/);
    const file = /--outputs-file\s+(\S+)/.exec(deploy)?.[1];
    expect(file).toBeDefined();
    const reads = [...section.matchAll(/require\('\.\/([^']+)'\)/g)].map((m) => m[1]);
    expect(reads.length).toBeGreaterThan(0);
    for (const r of reads) expect(r).toBe(file);
  });

  it('uses only -c options the app reads, and documents every one of them', () => {
    const used = commands.flatMap((c) => Object.keys(contextOf(c)));
    const documented = tableRows('option').flatMap((row) => [...row.join(' ').matchAll(/-c (\w+)=/g)].map((m) => m[1]!));
    const mentioned = [...section.matchAll(/`(\w+)`/g)].map((m) => m[1]!);
    for (const k of [...used, ...documented]) expect(Object.keys(CONTEXT_KEYS), `-c ${k}`).toContain(k);
    for (const k of Object.keys(CONTEXT_KEYS)) expect([...documented, ...mentioned], `README documents -c ${k}`).toContain(k);
  });

  it('reads only outputs that the named stacks have', () => {
    const lookups = [...section.matchAll(/\['([\w-]+)'\]\.(\w+)/g)];
    expect(lookups.length).toBeGreaterThan(0);
    for (const [, stack, output] of lookups) {
      expect(Object.keys(outputsByStack), `stack ${stack}`).toContain(stack);
      expect(outputsByStack[stack!], `${stack}.${output}`).toContain(output);
    }
  });

  it('lists exactly the outputs the stacks have, each under the right stack', () => {
    const stage = contextOf(deploy).stage!;
    const rows = tableRows('output').map(([o, s]) => [o!.replace(/`/g, ''), s!.replace(/`/g, '').replace('<stage>', stage)] as const);
    for (const [output, stack] of rows) expect(outputsByStack[stack], `${stack}.${output}`).toContain(output);
    const all = Object.entries(outputsByStack).flatMap(([s, os]) => os.map((o) => `${s}.${o}`));
    expect(rows.map(([o, s]) => `${s}.${o}`).sort()).toEqual(all.sort());
  });

  it('names only stacks the app has', () => {
    const stage = contextOf(deploy).stage!;
    for (const m of section.matchAll(/Gleaner-(<stage>|[a-z0-9]+)-(\w+)/g)) {
      expect(Object.keys(outputsByStack)).toContain(`Gleaner-${m[1] === '<stage>' ? stage : m[1]}-${m[2]}`);
    }
  });

  it('sets only environment variables the operator CLI reads, including the region and the table', () => {
    const assigned = commands
      .flatMap((c) => [...c.replace(/^export\s+/, '').matchAll(/(?:^|\s)([A-Z][A-Z0-9_]+)=/g)].map((m) => m[1]!))
      .filter((v, i, a) => a.indexOf(v) === i);
    expect(assigned).toEqual(expect.arrayContaining(['AWS_REGION', 'GLEANER_MODE', 'GLEANER_TABLE']));
    for (const v of assigned) expect([...Object.values(ENV), ...AWS_SDK_ENV], v).toContain(v);
    const cli = commands.find((c) => c.startsWith('npm run admin'));
    expect(cli).toBeDefined();
  });
});
