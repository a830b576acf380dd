import { afterAll, vi } from 'vitest';

// The projects share a worker between files (isolate: false, vitest.config.ts): packages from
// node_modules are loaded once per worker (Node's own module cache: the AWS SDK, hono, dynalite,
// s3rver, puppeteer…), which was most of each file's import time. Our own modules (functions/,
// lib/, test/) are loaded afresh for each file, as with isolation: their state (configuration,
// caches, singletons, counters) never crosses from one file to the next.
vi.resetModules();

// What a file's process exit ended under isolation, ended with the file: this file's budget pool
// threads (idle ones are unref'd, so nothing else would stop them).
afterAll(async () => {
  const { closeBudgetPool } = await import('../../functions/core/limits/budget-pool.js');
  await closeBudgetPool();
});
