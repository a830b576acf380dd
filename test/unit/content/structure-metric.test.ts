import { describe, expect, it } from 'vitest';
import { fidelity, structureOf } from '../../../bench/content/structure.js';

// The content bench's markdown structure fidelity (bench/content/structure.ts).
describe('markdown structure counts', () => {
  it('closes a fence only on a fence of the same kind at least as long', () => {
    const md = '````md\n```js\nx()\n```\n````\n\n## After';
    expect(structureOf(md)).toMatchObject({ code: 1, headings: [2] });
  });

  it('counts a heading inside a list item, not a thematic break as a list item', () => {
    const s = structureOf('- #### Title\n\n  text\n\n* * *\n\n- - -\n\n1. one\n   - two');
    expect(s.headings).toEqual([4]);
    expect(s.listItems).toBe(3);
  });

  it('counts one table per delimiter row, indented or not', () => {
    expect(structureOf('| a | b |\n| --- | --- |\n| 1 | 2 |\n\n- item\n\n  | c |\n  |---|\n  | 3 |').tables).toBe(2);
  });

  it('scores a feature only where the reference has it; ours alone is counted apart', () => {
    const f = fidelity('# T\n\ntext', '# T\n\n- a\n- b\n\n```\ncode\n```');
    expect(f.headings).toBe(1);
    expect(f.lists).toBeNaN();
    expect(f.code).toBeNaN();
    expect(f.extra).toEqual({ headings: false, lists: true, tables: false, code: true });
    expect(fidelity('- a\n- b\n- c\n- d', '- a\n- b').lists).toBe(0.5);
    expect(fidelity('## a\n## b', '### a\n## b').headings).toBe(0.5);
  });
});
