import { valueKey, type LineFilter } from './normalize-text.js';

/** One changed value: `previous: null` when it appeared, `current: null` when it went away. */
export interface FieldChange {
  previous: unknown;
  current: unknown;
}

/** Values reported at most per comparison (a list that was rebuilt would report every cell). */
export const MAX_FIELD_CHANGES = 500;

/** RFC 6901 escaping of one reference token. */
const token = (k: string | number) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

/** Every leaf of a JSON value by its JSON pointer (`/items/0/price`); empty objects and arrays are leaves. */
export function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (Array.isArray(value) && value.length) value.forEach((v, i) => flatten(v, `${prefix}/${token(i)}`, out));
  else if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length)
    for (const [k, v] of Object.entries(value)) flatten(v, `${prefix}/${token(k)}`, out);
  else out.set(prefix, value ?? null);
  return out;
}

/** The comparison key of a leaf: strings normalised like markdown lines, anything else as JSON. */
function leafKey(v: unknown, filters: readonly LineFilter[]): string {
  return typeof v === 'string' ? `s:${valueKey(v, filters)}` : `j:${JSON.stringify(v)}`;
}

/** A stable comparison key of a whole structured value (for the snapshot hash). */
export function structuredKey(value: unknown, filters: readonly LineFilter[] = []): string {
  if (value === undefined || value === null) return '';
  const leaves = [...flatten(value)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return leaves.map(([p, v]) => `${p}=${leafKey(v, filters)}`).join('\n');
}

/**
 * The values that changed between two versions of structured data, by JSON pointer (API.md
 * `fields`): changed, appeared (`previous: null`) or gone (`current: null`). String values are
 * compared after the same normalisation as markdown lines, so a tracking parameter or a relative
 * time in a field is no change. Null when nothing changed.
 */
export function fieldDiff(previous: unknown, current: unknown, filters: readonly LineFilter[] = []): Record<string, FieldChange> | null {
  const a = previous == null ? new Map<string, unknown>() : flatten(previous);
  const b = current == null ? new Map<string, unknown>() : flatten(current);
  const out: Record<string, FieldChange> = {};
  let n = 0;
  const put = (p: string, c: FieldChange) => {
    if (n++ < MAX_FIELD_CHANGES) out[p || '/'] = c;
  };
  for (const [p, v] of a) {
    if (!b.has(p)) put(p, { previous: v, current: null });
    else if (leafKey(v, filters) !== leafKey(b.get(p), filters)) put(p, { previous: v, current: b.get(p) });
  }
  for (const [p, v] of b) if (!a.has(p)) put(p, { previous: null, current: v });
  return n ? out : null;
}
