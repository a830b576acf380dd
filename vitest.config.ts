import { defineConfig } from 'vitest/config';

// Four projects (DESIGN.md, habit 11): unit (no network), integration (dynalite, s3rver,
// fixture site, real Chromium), cdk (template assertions), e2e (the local server over HTTP).
export default defineConfig({
  test: {
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', GLEANER_LOG_LEVEL: 'warn' },
    setupFiles: ['test/support/quiet-logs.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    // Two files at a time on two cores: vitest's default there (cores - 1) ran every file one after
    // another (about 21 minutes); two took about 15. Three were no faster (911 s against 885 s: the
    // suite is CPU-bound, Chromium above all) and made browser tests wait past their timeouts.
    maxWorkers: 2,
    projects: [
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 10_000, isolate: false } },
      { test: { name: 'integration', include: ['test/integration/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 } },
      // A synth (bundling skipped) is CPU work: three at once beside the other files can take minutes.
      { test: { name: 'cdk', include: ['test/cdk/**/*.test.ts'], testTimeout: 300_000, hookTimeout: 300_000 } },
      { test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
    ],
  },
});
