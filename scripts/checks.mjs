// The static checks of `npm test`, side by side: the type check, the linter and the dependency
// rules each use one core, and one after another they took about 47 s of the test run where
// together they take the longest one's time. Each one's output is printed whole when it ends;
// the exit code is the first failure's (0 when all pass).
//
// Each check keeps a cache under .cache/checks/ (git-ignored, one per clone or worktree), so a run
// re-checks only what changed since the last one: tsc's incremental build info (file hashes and
// their semantic signatures), eslint's per-file results keyed by content and config, and
// dependency-cruiser's results keyed by every cruised file's content and the rule set. A fresh
// clone has no cache and runs every check in full; deleting .cache/ does the same.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { setPriority } from 'node:os';

// Run beside the tests (scripts/test.mjs): this process and the checks it starts (they inherit it)
// at a lower priority, so they take the cores the tests leave idle.
if (process.env.GLEANER_CHECKS_NICE) {
  try {
    setPriority(Number(process.env.GLEANER_CHECKS_NICE));
  } catch {
    // not allowed here (some containers): the checks run at normal priority
  }
}

const CACHE = '.cache/checks';
mkdirSync(CACHE, { recursive: true });

const checks = [
  ['types', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json', '--incremental', '--tsBuildInfoFile', `${CACHE}/tsconfig.tsbuildinfo`]],
  ['lint', 'npx', ['eslint', '.', '--cache', '--cache-strategy', 'content', '--cache-location', `${CACHE}/eslint/`]],
  ['dependency rules', 'npm', ['run', '-s', 'depcheck', '--', '--cache', `${CACHE}/depcruise`, '--cache-strategy', 'content']],
];

const results = await Promise.all(
  checks.map(([name, cmd, args]) => new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', (e) => resolve({ name, code: 1, out: `${out}${e.message}\n` }));
    child.on('close', (code) => {
      const r = { name, code: code ?? 1, out };
      process.stdout.write(`[${name}] ${r.code === 0 ? 'passed' : `failed (exit ${r.code})`}\n${out.trim() ? `${out.trimEnd()}\n` : ''}`);
      resolve(r);
    });
  })),
);
const failed = results.find((r) => r.code !== 0);
process.exit(failed ? failed.code : 0);
