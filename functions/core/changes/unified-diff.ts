import { diffLines, type DiffOp } from './line-diff.js';

/** Largest diff returned (API.md: at most 100 KB); a longer one ends with a truncation mark. */
export const MAX_DIFF_BYTES = 100 * 1024;
/** Compared lines of both versions together past which no line diff is made ("changed, diff too large"). */
export const MAX_DIFF_LINES = 100_000;
const CONTEXT = 3;

/** Two versions to diff: the lines as shown and the keys they are compared by. */
export interface DiffSide {
  label: string;
  lines: readonly string[];
  keys: readonly string[];
}

export interface UnifiedDiff {
  /** `---`/`+++` headers and `@@ -a,n +b,m @@` hunks; null when the keys are equal. */
  diff: string | null;
  added_lines: number;
  removed_lines: number;
}

/**
 * A unified diff (git's format, three lines of context) of two versions compared by their keys
 * and shown by their lines: a line whose key did not change is context even when its text did
 * (a timestamp in it moved), so a hunk only ever holds a real edit. Line numbers count the
 * compared lines (blank lines are not compared).
 */
export function unifiedDiff(prev: DiffSide, cur: DiffSide, maxBytes = MAX_DIFF_BYTES): UnifiedDiff {
  if (prev.keys.length + cur.keys.length > MAX_DIFF_LINES) return tooLarge(prev, cur);
  const ops = diffLines(prev.keys, cur.keys);
  let added = 0;
  let removed = 0;
  for (const o of ops) {
    if (o.op === 'ins') added++;
    else if (o.op === 'del') removed++;
  }
  if (!added && !removed) return { diff: null, added_lines: 0, removed_lines: 0 };
  const out: string[] = [`--- ${prev.label}`, `+++ ${cur.label}`];
  let bytes = out.reduce((s, l) => s + Buffer.byteLength(l) + 1, 0);
  const mark = '\\ diff truncated at 100 KB';
  // Lines of each side before op i: hunk headers are numbered from these.
  const aBefore = new Int32Array(ops.length + 1);
  const bBefore = new Int32Array(ops.length + 1);
  ops.forEach((o, i) => {
    aBefore[i + 1] = aBefore[i] + (o.op === 'ins' ? 0 : 1);
    bBefore[i + 1] = bBefore[i] + (o.op === 'del' ? 0 : 1);
  });
  for (const [start, end] of hunks(ops)) {
    const aLen = aBefore[end] - aBefore[start];
    const bLen = bBefore[end] - bBefore[start];
    const header = `@@ -${range(aBefore[start], aLen)} +${range(bBefore[start], bLen)} @@`;
    const body = ops.slice(start, end).map((o) => (o.op === 'eq' ? ` ${cur.lines[o.b]}` : o.op === 'del' ? `-${prev.lines[o.a]}` : `+${cur.lines[o.b]}`));
    for (const l of [header, ...body]) {
      const size = Buffer.byteLength(l) + 1;
      if (bytes + size + mark.length + 1 > maxBytes) {
        out.push(mark);
        return { diff: out.join('\n'), added_lines: added, removed_lines: removed };
      }
      out.push(l);
      bytes += size;
    }
  }
  return { diff: `${out.join('\n')}\n`, added_lines: added, removed_lines: removed };
}

/**
 * Two versions too long to diff line by line (issue 37 finding 11): whether they differ, and how
 * many lines each has that the other lacks (counted as multisets, in linear time), with a diff
 * that says it is too large. Nothing is thrown, so the next fetch of the page compares again.
 */
function tooLarge(prev: DiffSide, cur: DiffSide): UnifiedDiff {
  const count = new Map<string, number>();
  for (const k of prev.keys) count.set(k, (count.get(k) ?? 0) + 1);
  let added = 0;
  for (const k of cur.keys) {
    const n = count.get(k) ?? 0;
    if (n > 0) count.set(k, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of count.values()) removed += n;
  let same = added === 0 && removed === 0 && prev.keys.length === cur.keys.length;
  for (let i = 0; same && i < prev.keys.length; i++) same = prev.keys[i] === cur.keys[i];
  if (same) return { diff: null, added_lines: 0, removed_lines: 0 };
  const note = `\\ diff too large: ${prev.keys.length} lines before and ${cur.keys.length} after (at most ${MAX_DIFF_LINES} are diffed)`;
  return { diff: `--- ${prev.label}\n+++ ${cur.label}\n${note}\n`, added_lines: added, removed_lines: removed };
}

/** git's range: `start,len`, 1-based; `,1` left out; an empty side numbered by the line before it. */
const range = (before: number, len: number) => (len === 0 ? `${before},0` : len === 1 ? `${before + 1}` : `${before + 1},${len}`);

/** Group an edit script into hunks [start, end): each run of changes with up to CONTEXT equal lines around it; hunks closer than 2*CONTEXT merge. */
function hunks(ops: DiffOp[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = 0;
  while (i < ops.length) {
    while (i < ops.length && ops[i].op === 'eq') i++;
    if (i >= ops.length) break;
    const start = Math.max(out.length ? out[out.length - 1][1] : 0, i - CONTEXT);
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end].op !== 'eq') end++;
      let eq = 0;
      while (end + eq < ops.length && ops[end + eq].op === 'eq') eq++;
      if (end + eq < ops.length && eq <= 2 * CONTEXT) {
        end += eq;
        continue;
      }
      end += Math.min(eq, CONTEXT);
      break;
    }
    out.push([start, end]);
    i = end;
  }
  return out;
}
