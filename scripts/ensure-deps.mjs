// prestart/pretest: install dependencies on a fresh clone (npm ci when the lockfile exists).
// Stale means the lockfile changed since the last install: judged by a hash of its content kept in
// node_modules after each install (a checkout or a new git worktree touches the lockfile's mtime
// without changing it), or, before the first such install, by mtimes as npm's own marker shows them.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';

const marker = 'node_modules/.package-lock.json';
const hashFile = 'node_modules/.gleaner-lock-hash';
const lockHash = existsSync('package-lock.json') ? createHash('sha256').update(readFileSync('package-lock.json')).digest('hex') : null;
const stale = !existsSync(marker)
  || (lockHash !== null && (existsSync(hashFile)
    ? readFileSync(hashFile, 'utf8').trim() !== lockHash
    : statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000));
const missing = ['tsx', 'vitest', 'dynalite', 's3rver', 'zod'].some((p) => !existsSync(`node_modules/${p}/package.json`));
if (missing || stale) {
  const cmd = lockHash !== null ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund';
  console.log(`[gleaner] installing dependencies: ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
}
if (lockHash !== null && existsSync('node_modules')) writeFileSync(hashFile, `${lockHash}\n`);
