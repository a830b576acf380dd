import { createHash } from 'node:crypto';
import { lineKey, type LineFilter } from './normalize-text.js';
import { unifiedDiff } from './unified-diff.js';
import { fieldDiff, structuredKey, type FieldChange } from './field-diff.js';

/** One version of a page as change tracking sees it: its main-content markdown and its structured data. */
export interface PageVersion {
  /** Main-content markdown; null for a scraper without markdown (css-extract). */
  markdown: string | null;
  /** `{ json?, extracted? }`, or css-extract's records; null when there is none. */
  structured: unknown;
}

/** A version prepared for comparison: the lines that count, their keys, and a hash of them. */
export interface PreparedVersion {
  lines: string[];
  keys: string[];
  structuredKey: string;
  hash: string;
}

/** Lines of markdown that count, with their keys (blank and noise-only lines dropped). */
export function prepare(v: PageVersion, filters: readonly LineFilter[] = []): PreparedVersion {
  const lines: string[] = [];
  const keys: string[] = [];
  for (const raw of (v.markdown ?? '').split(/\r?\n/)) {
    const k = lineKey(raw, filters);
    if (!k) continue;
    lines.push(raw);
    keys.push(k);
  }
  const sk = structuredKey(v.structured, filters);
  const hash = createHash('sha256').update(keys.join('\n')).update('\u0000').update(sk).digest('base64url');
  return { lines, keys, structuredKey: sk, hash };
}

/** What comparing two versions found (API.md `change`, without status bookkeeping). */
export interface Comparison {
  changed: boolean;
  diff: string | null;
  added_lines: number;
  removed_lines: number;
  fields: Record<string, FieldChange> | null;
}

/**
 * Compare two versions of one page: a unified diff of the markdown lines by their keys, and a
 * field diff of the structured data. `changed` is true when either differs. Pure: the same
 * inputs always give the same answer (tested on saved revisions).
 */
export function compareVersions(prev: PageVersion, cur: PageVersion, labels: { previous: string; current: string }, filters: readonly LineFilter[] = []): Comparison {
  const a = prepare(prev, filters);
  const b = prepare(cur, filters);
  const text = unifiedDiff({ label: labels.previous, lines: a.lines, keys: a.keys }, { label: labels.current, lines: b.lines, keys: b.keys });
  const hasStructured = prev.structured != null || cur.structured != null;
  const fields = hasStructured ? fieldDiff(prev.structured, cur.structured, filters) : null;
  return { changed: text.diff !== null || fields !== null, diff: text.diff, added_lines: text.added_lines, removed_lines: text.removed_lines, fields };
}
