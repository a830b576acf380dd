import { execSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { budgetThreadCommands } from '../../lib/budget-thread-bundle.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Once per test run, before any worker starts: the budget thread built from the sources exactly as
 * a deployed function carries it (budgetThreadCommands), for every budget pool the tests start
 * (GLEANER_TEST_BUDGET_THREAD, read by budget-pool.ts). Hundreds of threads start in a run (each
 * overrun ends one); through tsx each took about 2 s of CPU to load its modules, built 0.5 s.
 */
export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'gleaner-test-threads-'));
  for (const cmd of budgetThreadCommands(REPO_ROOT, dir)) execSync(cmd, { cwd: REPO_ROOT, stdio: 'inherit' });
  process.env.GLEANER_TEST_BUDGET_THREAD = join(dir, 'budget-thread.mjs');
  return () => rmSync(dir, { recursive: true, force: true });
}
