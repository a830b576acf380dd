import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { budgetThreadCommands } from '../../lib/budget-thread-bundle.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Once per test run, before any worker starts, the worker threads the tests start, built from the
 * sources (each loaded through tsx took two to four times the CPU of its bundle):
 * - the budget thread exactly as a deployed function carries it (budgetThreadCommands), for every
 *   budget pool the tests start (GLEANER_TEST_BUDGET_THREAD, read by budget-pool.ts). Hundreds of
 *   threads start in a run (each overrun ends one); through tsx each took about 2 s of CPU to load
 *   its modules, built 0.5 s.
 * - the local server's crawl thread (GLEANER_TEST_CRAWL_THREAD, read by crawl-thread.ts), started by
 *   every test service that crawls: our sources in one file, packages left to node_modules (so it
 *   is written inside the repository, where they resolve) and loaded as they are through tsx; about
 *   1 s of CPU to load against 2.5 s.
 */
export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-test-threads-'));
  const inRepo = mkdtempSync(join(REPO_ROOT, '.tmp-test-threads-'));
  const crawl = build({
    entryPoints: [join(REPO_ROOT, 'functions/local/crawl-thread-main.ts')],
    outfile: join(inRepo, 'crawl-thread-main.mjs'),
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: `node${process.versions.node.split('.')[0]}`,
    // `require` for the CommonJS code our sources load lazily (lazy-engine.ts), as in a deployed bundle.
    banner: { js: "import { createRequire as __gleanerCreateRequire } from 'node:module'; const require = __gleanerCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  for (const cmd of budgetThreadCommands(REPO_ROOT, dir)) execSync(cmd, { cwd: REPO_ROOT, stdio: 'inherit' });
  await crawl;
  process.env.GLEANER_TEST_BUDGET_THREAD = join(dir, 'budget-thread.mjs');
  process.env.GLEANER_TEST_CRAWL_THREAD = join(inRepo, 'crawl-thread-main.mjs');
  return () => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(inRepo, { recursive: true, force: true });
  };
}
