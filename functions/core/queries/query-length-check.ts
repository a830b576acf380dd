import { badRequest } from '../errors.js';
import { connectors } from '../sources/registry.js';
import { queryLengthProblems } from '../sources/query-length.js';
import { planFromPrompt } from './rule-planner.js';
import { resolveTimeWindow, type TimeWindowInput } from './time-window.js';
import type { SourceName } from '../../config.js';

/**
 * Refuses (400) a query or job whose prompt makes a search text longer than a chosen source takes
 * (X recent search and Reddit search: 512 characters), naming the source and its limit, so the
 * caller learns it at submit time instead of from a failed run. The deterministic rule planner
 * gives the search terms here; connectors check again before sending (an LLM plan may differ).
 */
export function assertQueryFits(input: { prompt: string; sources: readonly SourceName[]; time_window?: unknown }, now: Date): void {
  const window = input.time_window ? resolveTimeWindow(input.time_window as TimeWindowInput, now) : undefined;
  const plan = planFromPrompt(input.prompt, now, window);
  const problems = queryLengthProblems(input.sources, plan, connectors);
  if (!problems.length) return;
  throw badRequest(
    problems.map((p) => `the ${p.source} search text for this prompt would be ${p.length} characters; ${p.source} accepts at most ${p.max}`).join('; ') +
      '. Shorten the prompt or leave those sources out.',
    problems.map((p) => ({ path: 'body.prompt', message: `${p.source}: at most ${p.max} characters of search text (this prompt makes ${p.length})` })),
  );
}
