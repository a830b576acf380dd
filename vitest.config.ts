import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

/**
 * Every project shares its workers between files (isolate: false) with our own modules loaded
 * afresh for each file (fresh-modules.ts): node_modules are imported once per worker instead of
 * once per file (an e2e file imported the whole service, about 4 s of CPU, before its first test).
 */
const shared = { isolate: false, setupFiles: ['test/support/fresh-modules.ts'] };

// Four projects (DESIGN.md, habit 11): unit (no network), integration (dynalite, s3rver,
// fixture site, real Chromium), cdk (template assertions), e2e (the local server over HTTP).
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', GLEANER_LOG_LEVEL: 'warn' },
    setupFiles: ['test/support/quiet-logs.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Longest files first (a fresh clone has no timings of a last run): see the sequencer.
    sequence: { sequencer: SlowFirstSequencer },
    // Three files at a time on two cores. vitest's default there (cores - 1) ran every file one
    // after another (about 21 minutes). With two, the cores were idle a fifth of the run (both
    // files waiting: leases, deadlines, pages, a browser's round trips): 754 s, 20% idle; three
    // fill that (650 s, 7.5% idle, same machine and commit). Browser waits must hold at that load.
    maxWorkers: 3,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 10_000, ...shared } },
      { test: { name: 'integration', include: ['test/integration/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000, ...shared } },
      // A synth (bundling skipped) is CPU work: three at once beside the other files can take minutes.
      { test: { name: 'cdk', include: ['test/cdk/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000, ...shared } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000, ...shared } },
    ],
  },
});
