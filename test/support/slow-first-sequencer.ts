import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest files first, across all four projects: two workers then end together, not with one core
 * idle while the other finishes a 90 s e2e file that started last. vitest orders by the durations
 * of its last run (node_modules/.vite/vitest/…/results.json), which a fresh clone does not have;
 * then file-durations.json (ms per file, taken from a full run on the 2-core machine; files under
 * 2 s are left out) stands in. A file known to neither counts as DEFAULT_MS. Files that failed
 * last time still run first, as vitest does.
 */
const KNOWN: Record<string, number> = JSON.parse(readFileSync(new URL('./file-durations.json', import.meta.url), 'utf8'));
const DEFAULT_MS = 2_000;

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const info = (f: TestSpecification) => {
      const path = relative(root, f.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${f.project.name}:${path}`);
      return { failed: cached?.failed ? 1 : 0, ms: cached?.duration ?? KNOWN[path] ?? DEFAULT_MS, path };
    };
    const keyed = files.map((f) => ({ f, ...info(f) }));
    keyed.sort((a, b) => b.failed - a.failed || b.ms - a.ms || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    return keyed.map((k) => k.f);
  }
}
