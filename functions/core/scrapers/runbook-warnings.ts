import type { RunbookStep } from './runbook-schema.js';

/**
 * What an `extract` step found nothing for: an `item_selector` that matched no element, or a
 * field whose selector matched nothing in any item (its column stays, empty: `null`, or `[]` for
 * `all`). Shown in the step log as warnings so a mistyped selector is not a silently missing
 * column (issue 29). Values that exist but are empty strings are not warned about.
 */
export function emptyFieldWarnings(step: Extract<RunbookStep, { action: 'extract' }>, records: Record<string, unknown>[]): string[] {
  if (step.item_selector && records.length === 0) {
    return [`item_selector ${step.item_selector} matched nothing: no items`];
  }
  const out: string[] = [];
  for (const [name, spec] of Object.entries(step.fields)) {
    const empty = records.every((r) => r[name] === null || r[name] === undefined || (Array.isArray(r[name]) && (r[name] as unknown[]).length === 0));
    if (empty) out.push(`field ${name}: ${spec.selector} found nothing${records.length > 1 ? ` in any of the ${records.length} items` : ''}; its column is empty`);
  }
  return out;
}
