import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * One project after another, longest files first within each, projects with the longest files
 * first: the workers then end together on short unit files, not with one core idle while the other
 * finishes a 90 s e2e file that started last. Files of a project stay together because vitest
 * reuses a worker (isolate: false) only when the next file in its queue is of the same project;
 * ordered by duration across projects, nearly every file started a new worker that loaded the AWS
 * SDK, puppeteer or aws-cdk-lib again (about 85 worker starts in a full run). vitest orders by the durations
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
    const keyed = files.map((f) => ({ f, project: f.project.name, ...info(f) }));
    // A project's rank: its longest file.
    const rank = new Map<string, number>();
    for (const k of keyed) rank.set(k.project, Math.max(rank.get(k.project) ?? 0, k.ms));
    const byName = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    keyed.sort((a, b) => b.failed - a.failed || rank.get(b.project)! - rank.get(a.project)! || byName(a.project, b.project) || b.ms - a.ms || byName(a.path, b.path));
    return keyed.map((k) => k.f);
  }
}
