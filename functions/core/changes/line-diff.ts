/**
 * Line diff by Myers' O(ND) greedy algorithm ("An O(ND) Difference Algorithm and Its Variations",
 * 1986), written for this module: common head and tail are trimmed first, the furthest-reaching
 * paths of each edit distance d are kept as a window of the V array so the edit script can be
 * walked back, and past {@link MAX_EDITS} edits or {@link MAX_SNAKE_STEPS} line comparisons the
 * middle is reported as replaced whole (memory stays O(MAX_EDITS²) and time O(n + m +
 * MAX_SNAKE_STEPS) whatever two pages are compared). The script is built by pushing one step at a
 * time, never by spreading an array into a call (a spread of ~150k steps overflows the stack:
 * issue 37 finding 11).
 */

/** One step of an edit script: line `a` of the old side kept, deleted, or line `b` of the new side inserted. */
export type DiffOp = { op: 'eq'; a: number; b: number } | { op: 'del'; a: number } | { op: 'ins'; b: number };

/** Edits explored at most before the rest is reported as replaced. */
export const MAX_EDITS = 1_000;
/** Line comparisons along diagonals at most before the rest is reported as replaced. */
export const MAX_SNAKE_STEPS = 2_000_000;

/** The shortest edit script turning `a` into `b` (equality by `===` on the keys). */
export function diffLines(a: readonly string[], b: readonly string[]): DiffOp[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const ops: DiffOp[] = [];
  for (let i = 0; i < head; i++) ops.push({ op: 'eq', a: i, b: i });
  middle(ops, a, b, head, a.length - tail, head, b.length - tail);
  for (let i = tail; i > 0; i--) ops.push({ op: 'eq', a: a.length - i, b: b.length - i });
  return ops;
}

/** The middle's edit script appended to `ops`. */
function middle(ops: DiffOp[], a: readonly string[], b: readonly string[], a0: number, a1: number, b0: number, b1: number): void {
  const n = a1 - a0;
  const m = b1 - b0;
  const replaced = () => {
    for (let i = 0; i < n; i++) ops.push({ op: 'del', a: a0 + i });
    for (let i = 0; i < m; i++) ops.push({ op: 'ins', b: b0 + i });
  };
  if (n === 0 || m === 0) return replaced();
  let steps = 0;
  const maxD = Math.min(n + m, MAX_EDITS);
  const off = maxD + 1;
  const v = new Int32Array(2 * maxD + 3);
  // trace[d] = the window v[-d-1 .. d+1] as it was before step d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= maxD; d++) {
    trace.push(v.slice(off - d - 1, off + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      const x0 = x;
      while (x < n && y < m && a[a0 + x] === b[b0 + y]) {
        x++;
        y++;
      }
      steps += x - x0 + 1;
      v[off + k] = x;
      if (x >= n && y >= m) {
        for (const o of walkBack(trace, d, n, m, a0, b0)) ops.push(o);
        return;
      }
    }
    if (steps > MAX_SNAKE_STEPS) break;
  }
  replaced();
}

function walkBack(trace: Int32Array[], dEnd: number, n: number, m: number, a0: number, b0: number): DiffOp[] {
  const out: DiffOp[] = [];
  let x = n;
  let y = m;
  for (let d = dEnd; d > 0; d--) {
    const w = trace[d];
    const at = (k: number) => w[k + d + 1];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const px = at(prevK);
    const py = px - prevK;
    while (x > px && y > py) {
      x--;
      y--;
      out.push({ op: 'eq', a: a0 + x, b: b0 + y });
    }
    if (x === px) out.push({ op: 'ins', b: b0 + py });
    else out.push({ op: 'del', a: a0 + px });
    x = px;
    y = py;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    out.push({ op: 'eq', a: a0 + x, b: b0 + y });
  }
  return out.reverse();
}
