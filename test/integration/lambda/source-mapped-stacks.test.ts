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
  it('maps frames of a split bundle (entry and chunk) to the source files and lines, only when logged', async () => {
    const src = join(dir, 'thrower.ts');
    writeFileSync(src, ['export function second(n: number): number {', "  if (n > 0) throw new Error('boom from line 2');", '  return n;', '}', ''].join('\n'));
    const entry = join(dir, 'entry.ts');
    writeFileSync(entry, ['export async function first(n: number): Promise<number> {', "  const { second } = await import('./thrower.js');", '  return second(n) + 1;', '}', ''].join('\n'));
    const outdir = join(dir, 'out');
    // As the CDK bundling writes a function (lib/gleaner-function.ts splitBundleArgs): the entry
    // and its chunks minified in one folder, a map beside each.
    await build({ entryPoints: [entry], outdir, entryNames: 'index', chunkNames: '[name]-[hash]', outExtension: { '.js': '.mjs' }, splitting: true, bundle: true, minify: true, sourcemap: true, format: 'esm', platform: 'node', sourcesContent: false, logLevel: 'silent' });
    const out = join(outdir, 'index.mjs');
    // Thrown in a plain Node process without --enable-source-maps, as on Lambda.
    const runner = join(dir, 'run.mjs');
    writeFileSync(runner, `import { first } from ${JSON.stringify(pathToFileURL(out).href)};\ntry { await first(1); } catch (e) { process.stdout.write(e.stack); }\n`);
    const r = spawnSync(process.execPath, [runner], { encoding: 'utf8', env: { PATH: process.env.PATH } });
    const err = Object.assign(new Error('boom from line 2'), { stack: r.stdout });
    // The raw stack points into the one-line chunk and the one-line entry.
    expect(err.stack).toMatch(new RegExp(`${outdir}/thrower-[A-Z0-9]+\\.mjs:1:`));
    expect(err.stack).toContain(`${out}:1:`);
    const mapped = bundleStackMapper(out)(err.stack);
    expect(mapped).toMatch(/thrower\.ts:2:\d+/);
    expect(mapped).toMatch(/entry\.ts:3:\d+/);
    expect(mapped).not.toMatch(/\.mjs:1:/);

    setStackMapper(bundleStackMapper(out));
    expect((redact(err) as { stack: string }).stack).toMatch(/thrower\.ts:2:\d+/);
  });

  it('leaves stacks alone without a map beside the bundle (running from source)', () => {
    const stack = `Error: x\n    at f (${join(dir, 'nomap.mjs')}:1:10)`;
    expect(bundleStackMapper(join(dir, 'nomap.mjs'))(stack)).toBe(stack);
    expect(bundleStackMapper(join(dir, 'sub', 'index.mjs'))(stack)).toBe(stack);
    expect(bundleStackMapper('/elsewhere/index.mjs')(stack)).toBe(stack);
  });
});
