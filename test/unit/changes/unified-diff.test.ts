import { describe, expect, it } from 'vitest';
import { diffLines } from '../../../functions/core/changes/line-diff.js';
import { MAX_DIFF_BYTES, MAX_DIFF_LINES, unifiedDiff } from '../../../functions/core/changes/unified-diff.js';
import { compareVersions } from '../../../functions/core/changes/compare-versions.js';
import { lineKey, MAX_NORMALIZED_CHARS, normalizeWork } from '../../../functions/core/changes/normalize-text.js';
import { fieldDiff } from '../../../functions/core/changes/field-diff.js';

const side = (label: string, lines: string[]) => ({ label, lines, keys: lines });

/** Apply an edit script to `a`: it must rebuild `b` exactly. */
const apply = (a: string[], b: string[]) => diffLines(a, b).flatMap((o) => (o.op === 'eq' ? [a[o.a]] : o.op === 'ins' ? [b[o.b]] : []));

describe('diffLines (Myers)', () => {
  it('gives an edit script that rebuilds the new side, minimal on small cases', () => {
    const a = 'a b c a b b a'.split(' ');
    const b = 'c b a b a c'.split(' ');
    expect(apply(a, b)).toEqual(b);
    // The classic example: edit distance 5.
    expect(diffLines(a, b).filter((o) => o.op !== 'eq')).toHaveLength(5);
  });

  it('rebuilds random revisions', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let t = 0; t < 200; t++) {
      const a = Array.from({ length: rnd(30) }, () => String(rnd(6)));
      const b = Array.from({ length: rnd(30) }, () => String(rnd(6)));
      expect(apply(a, b)).toEqual(b);
    }
  });
});

describe('unifiedDiff', () => {
  it('writes git-style headers and hunks with three lines of context', () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const b = [...a];
    b[9] = 'line ten';
    b.splice(15, 1);
    const d = unifiedDiff(side('a/page', a), side('b/page', b));
    expect(d.added_lines).toBe(1);
    expect(d.removed_lines).toBe(2);
    expect(d.diff).toBe(
      ['--- a/page', '+++ b/page', '@@ -7,13 +7,12 @@', ' line 7', ' line 8', ' line 9', '-line 10', '+line ten', ' line 11', ' line 12', ' line 13', ' line 14', ' line 15', '-line 16', ' line 17', ' line 18', ' line 19', ''].join('\n'),
    );
  });

  it('numbers an insertion into an empty side from the line before it', () => {
    expect(unifiedDiff(side('a', []), side('b', ['x'])).diff).toBe('--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n');
  });

  it('is null when the keys are equal, whatever the shown lines say', () => {
    expect(unifiedDiff({ label: 'a', lines: ['at 10:00:01'], keys: ['k'] }, { label: 'b', lines: ['at 10:00:02'], keys: ['k'] }).diff).toBeNull();
  });

  it('stays within 100 KB and says it was cut', () => {
    const big = (p: string) => Array.from({ length: 5000 }, (_, i) => `${p} ${i} ${'x'.repeat(40)}`);
    const d = unifiedDiff(side('a', big('old')), side('b', big('new')));
    expect(Buffer.byteLength(d.diff!)).toBeLessThanOrEqual(MAX_DIFF_BYTES);
    expect(d.diff!.endsWith('\\ diff truncated at 100 KB')).toBe(true);
    expect([d.added_lines, d.removed_lines]).toEqual([5000, 5000]);
  });
});

describe('fieldDiff', () => {
  it('reports changed, appeared and gone values by JSON pointer, escaping ~ and /', () => {
    expect(fieldDiff({ 'a/b': 1, 'c~d': [1, 2], same: 'x' }, { 'a/b': 2, 'c~d': [1], same: 'x', n: null })).toEqual({
      '/a~1b': { previous: 1, current: 2 },
      '/c~0d/1': { previous: 2, current: null },
      '/n': { previous: null, current: null },
    });
  });

  it('compares strings after normalisation and is null when nothing changed', () => {
    expect(fieldDiff({ link: 'https://s.example/p?utm_source=a', when: '5 minutes ago' }, { link: 'https://s.example/p', when: '2 hours ago' })).toBeNull();
    expect(fieldDiff([{ price: '$5' }], [{ price: '$6' }])).toEqual({ '/0/price': { previous: '$5', current: '$6' } });
  });
});

describe('bounded line diff (issue 37 finding 11)', () => {
  it('an edit script of 150k changed lines a side is built without spreading it into a call', () => {
    const a = Array.from({ length: 150_000 }, (_, i) => `old ${i}`);
    const b = Array.from({ length: 150_000 }, (_, i) => `new ${i}`);
    const ops = diffLines(a, b);
    expect(ops).toHaveLength(300_000);
    expect([ops[0], ops[149_999], ops[150_000], ops[299_999]]).toEqual([{ op: 'del', a: 0 }, { op: 'del', a: 149_999 }, { op: 'ins', b: 0 }, { op: 'ins', b: 149_999 }]);
  });

  it('past MAX_DIFF_LINES the versions are "changed, diff too large", with counts, and equal ones are still equal', () => {
    const a = Array.from({ length: 80_000 }, (_, i) => `line ${i}`);
    const b = [...a.slice(0, 40_000), 'inserted', ...a.slice(40_001), 'x', 'y'];
    expect(a.length + b.length).toBeGreaterThan(MAX_DIFF_LINES);
    const d = unifiedDiff(side('a/p', a), side('b/p', b));
    expect(d.diff).toBe(`--- a/p\n+++ b/p\n\\ diff too large: 80000 lines before and 80002 after (at most ${MAX_DIFF_LINES} are diffed)\n`);
    expect([d.added_lines, d.removed_lines]).toEqual([3, 1]);
    expect(unifiedDiff(side('a/p', a), side('b/p', [...a])).diff).toBeNull();
  });

  it('a page of 5 MB on one line compares cheaply: only the head of the line is normalised, an edit at its end is seen', () => {
    const head = 'Updated 5 minutes ago · ';
    const before = `${head}${'lorem ipsum '.repeat(440_000)}end`;
    const after = `${head.replace('5', '9')}${'lorem ipsum '.repeat(440_000)}END`;
    expect(before.length).toBeGreaterThan(5_000_000);
    normalizeWork.tokens = 0;
    expect(lineKey(before)).toBe(lineKey(before.replace('5 minutes', '7 minutes')));
    // Tokens of two capped lines, not of 10 MB.
    expect(normalizeWork.tokens).toBeLessThan(4 * MAX_NORMALIZED_CHARS);
    const cmp = compareVersions({ markdown: before, structured: null }, { markdown: after, structured: null }, { previous: 'a', current: 'b' });
    expect([cmp.changed, cmp.added_lines, cmp.removed_lines]).toEqual([true, 1, 1]);
    expect(Buffer.byteLength(cmp.diff!)).toBeLessThanOrEqual(MAX_DIFF_BYTES);
  });
});
