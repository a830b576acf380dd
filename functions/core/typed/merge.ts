import type { Candidate, FieldProvenance, Reading, TypedEnvelope } from './types.js';

/**
 * Merge readers' answers for one item type: readings come strongest source first; each field
 * takes the first reading that has it (a later, weaker source never overrides it). Provenance
 * records where each kept value came from; warnings of every reading are kept, once each.
 */
export function mergeReadings<F extends object>(readings: Reading<F>[], extraWarnings: string[] = []): F & TypedEnvelope {
  const out: Record<string, unknown> = {};
  const provenance: Record<string, FieldProvenance> = {};
  const warnings: string[] = [];
  for (const r of readings) {
    for (const [k, cand] of Object.entries(r.fields) as [string, Candidate | undefined][]) {
      if (!cand || k in out || isEmpty(cand.value)) continue;
      out[k] = cand.value;
      provenance[k] = { source: cand.source, path: cand.path, confidence: round(cand.confidence) };
    }
    for (const w of r.warnings) if (!warnings.includes(w)) warnings.push(w);
  }
  for (const w of extraWarnings) if (!warnings.includes(w)) warnings.push(w);
  return { ...(out as F), provenance, warnings };
}

const round = (n: number) => Math.round(Math.max(0, Math.min(1, n)) * 100) / 100;

export const isEmpty = (v: unknown): boolean =>
  v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && !v.length) || (typeof v === 'object' && !Array.isArray(v) && !Object.keys(v as object).length);

/**
 * A warning for each field where a weaker source disagrees with the value kept (the kept value
 * stays: it came from the stronger source).
 */
export function disagreements<F extends object>(kept: Reading<F>[], field: keyof F & string, same: (a: unknown, b: unknown) => boolean = (a, b) => a === b): string[] {
  const vals = kept.map((r) => r.fields[field]).filter((c): c is NonNullable<typeof c> => Boolean(c)) as Candidate[];
  if (vals.length < 2) return [];
  const first = vals[0];
  const other = vals.find((v) => !same(v.value, first.value));
  return other ? [`${field}: ${other.source} says ${JSON.stringify(other.value)}, ${first.source} says ${JSON.stringify(first.value)}; kept ${first.source}`] : [];
}
