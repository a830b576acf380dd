import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { HEAP_FLAG, LOCAL_HEAP_MB } from '../../../functions/local/heap-bound.js';

// The local service runs with the heap bound of functions/local/heap-bound.ts wherever it is
// started: `npm start`, and the bench that hosts it in its own process (a bench measuring an
// unbounded service would measure another configuration than the one users run).
it('npm start and npm run bench bound the V8 heap of the local service', () => {
  const scripts = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(HEAP_FLAG).toBe(`--max-old-space-size=${LOCAL_HEAP_MB}`);
  expect(scripts.start).toContain(HEAP_FLAG);
  expect(scripts.bench).toContain(HEAP_FLAG);
  expect(readFileSync('test/e2e/crawl/local-process.ts', 'utf8')).toContain('HEAP_FLAG');
});
