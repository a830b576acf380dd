import type { SourceName } from '../../config.js';
import { SourceError, type Connector, type QueryPlan } from './types.js';

/** The SourceError for a search text longer than the platform takes (kind invalid_query). */
export function queryTooLongError(source: string, length: number, max: number): SourceError {
  return new SourceError(
    `${source} rejected the query (invalid query): the ${source} search text would be ${length} characters, and ${source} accepts at most ${max}; shorten the prompt (fewer keywords, hashtags or exclusions)`,
    undefined,
    false,
    { kind: 'invalid_query' },
  );
}

/** One source whose search text for `plan` is too long. */
export interface QueryLengthProblem {
  source: SourceName;
  length: number;
  max: number;
}

/**
 * The sources whose search text for `plan` exceeds the platform's documented limit
 * ({@link Connector.maxQueryLength}); empty when every source can take it.
 */
export function queryLengthProblems(sources: readonly SourceName[], plan: QueryPlan, registry: Partial<Record<SourceName, Connector>>): QueryLengthProblem[] {
  const out: QueryLengthProblem[] = [];
  for (const s of sources) {
    const c = registry[s];
    if (!c?.maxQueryLength || !c.searchText) continue;
    const length = c.searchText(plan).length;
    if (length > c.maxQueryLength) out.push({ source: s, length, max: c.maxQueryLength });
  }
  return out;
}
