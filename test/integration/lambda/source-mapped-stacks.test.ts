import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { bundleStackMapper } from '../../../functions/adapters/aws/source-mapped-stacks.js';
import { redact, setStackMapper } from '../../../functions/core/log.js';

// Lambda functions run without --enable-source-maps (it cost a fifth of a cold start, issue 8):
// an error's stack is mapped to the TypeScript sources when it is logged. Checked on a real
// minified esbuild bundle with its map beside it, as the CDK bundling writes them.
const dir = mkdtempSync(join(tmpdir(), 'gleaner-stack-'));
afterAll(() => {
  setStackMapper((s) => s);
  rmSync(dir, { recursive: true, force: true });
});

describe('source-mapped stacks', () => {
  it('maps a minified bundle frame to the source file and line, only when logged', async () => {
    const src = join(dir, 'thrower.ts');
    writeFileSync(src, ['export function first(n: number): number {', '  return second(n) + 1;', '}', '', 'function second(n: number): number {', "  if (n > 0) throw new Error('boom from line 6');", '  return n;', '}', ''].join('\n'));
    const out = join(dir, 'index.mjs');
    await build({ entryPoints: [src], outfile: out, bundle: true, minify: true, sourcemap: true, format: 'esm', platform: 'node', sourcesContent: false, logLevel: 'silent' });
    // Thrown in a plain Node process without --enable-source-maps, as on Lambda.
    const runner = join(dir, 'run.mjs');
    writeFileSync(runner, `import { first } from ${JSON.stringify(pathToFileURL(out).href)};\ntry { first(1); } catch (e) { process.stdout.write(e.stack); }\n`);
    const r = spawnSync(process.execPath, [runner], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    const err = Object.assign(new Error('boom from line 6'), { stack: r.stdout });
    expect(err?.stack).toContain(`${out}:1:`); // the raw stack points into the one-line bundle
    const mapped = bundleStackMapper(out)(err!.stack!);
    expect(mapped).toMatch(/thrower\.ts:6:\d+/);
    expect(mapped).toMatch(/thrower\.ts:2:\d+/);
    expect(mapped).not.toContain(`${out}:1:`);

    setStackMapper(bundleStackMapper(out));
    expect((redact(err) as { stack: string }).stack).toMatch(/thrower\.ts:6:\d+/);
  });

  it('leaves stacks alone without a map beside the bundle (running from source)', () => {
    const stack = `Error: x\n    at f (${join(dir, 'nomap.mjs')}:1:10)`;
    expect(bundleStackMapper(join(dir, 'nomap.mjs'))(stack)).toBe(stack);
    expect(bundleStackMapper('/elsewhere/index.mjs')(stack)).toBe(stack);
  });
});
