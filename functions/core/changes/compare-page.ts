import { compileFilters } from './change-options.js';
import { compareVersions, prepare, type Comparison, type PageVersion } from './compare-versions.js';

/** What the budget thread is given: plain data (the tenant's patterns as text, compiled there). */
export interface CompareInput {
  current: PageVersion;
  /** The baseline's snapshot: given, the two versions are compared; left out, only `current` is prepared. */
  previous?: PageVersion;
  labels?: { previous: string; current: string };
  ignore_patterns?: string[];
}

export interface CompareOutput {
  /** Hash of `current`'s compared form (the baseline's `hash`). */
  hash: string;
  /** Lines of `current` that count. */
  lines: number;
  comparison?: Comparison;
}

/** One page's comparison with its baseline (pure): what the budget thread runs (compare-budgeted.ts). */
export function comparePage(input: CompareInput): CompareOutput {
  const filters = compileFilters({ ignore_patterns: input.ignore_patterns });
  const cur = prepare(input.current, filters);
  const comparison = input.previous ? compareVersions(input.previous, input.current, input.labels ?? { previous: 'previous', current: 'current' }, filters) : undefined;
  return { hash: cur.hash, lines: cur.lines.length, ...(comparison ? { comparison } : {}) };
}
