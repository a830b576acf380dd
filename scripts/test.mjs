// `npm test` and `npm run test:quick`: the static checks (scripts/checks.mjs) and vitest at the same
// time, the checks at a low CPU priority (nice 10). The suite leaves about a third of the two cores
// idle (tests waiting on leases, deadlines and pages: 820 s of CPU in 634 s of wall time on 2
// cores), and the checks fill that instead of running before it (59 s of wall time cold). At
// nice 10 they take little from a test that wants the CPU, so browser tests keep their margins.
//
// Every argument goes to vitest (`--project unit` for the quick tier). vitest's output streams as it
// runs; each check's output is printed whole when it ends (checks.mjs). The exit code is the
// checks' when they fail (a type error fails the run like a failing test), else vitest's.
import { spawn } from 'node:child_process';

const run = (cmd, args, env) =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('error', (e) => {
      process.stderr.write(`${cmd}: ${e.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });

const [checks, tests] = await Promise.all([
  run(process.execPath, ['scripts/checks.mjs'], { GLEANER_CHECKS_NICE: '10' }),
  run(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...process.argv.slice(2)]),
]);
if (checks !== 0) process.stderr.write(`static checks failed (exit ${checks}): see [types], [lint] and [dependency rules] above\n`);
process.exit(checks !== 0 ? checks : tests);
