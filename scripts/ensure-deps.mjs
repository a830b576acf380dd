// prestart/pretest: install dependencies on a fresh clone (npm ci when the lockfile exists).
import { existsSync, statSync } from 'node:fs';
import { execSync } from 'node:child_process';

const marker = 'node_modules/.package-lock.json';
const stale = !existsSync(marker) || (existsSync('package-lock.json') && statSync('package-lock.json').mtimeMs > statSync(marker).mtimeMs + 1000);
const missing = ['tsx', 'vitest', 'dynalite', 's3rver', 'zod'].some((p) => !existsSync(`node_modules/${p}/package.json`));
if (missing || stale) {
  const cmd = existsSync('package-lock.json') ? 'npm ci --no-audit --no-fund' : 'npm install --no-audit --no-fund';
  console.log(`[gleaner] installing dependencies: ${cmd}`);
  execSync(cmd, { stdio: 'inherit' });
}
