import { beforeAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';

// The picker's words (console/lib/selector-picker.js) on a server-side DOM: match samples and box
// labels are the elements' text, never "[object HTMLSpanElement]" (issue 41 item 3).

interface Picker {
  describeCount(m: { count: number; samples: string[] } | null, scoped?: boolean): string;
  boxLabel(b: { tag: string; text: string }): string;
}
let picker: Picker;

beforeAll(async () => {
  const { document, Node, DocumentFragment } = parseHTML('<!doctype html><html><body></body></html>');
  Object.assign(globalThis, { document, Node, DocumentFragment, location: new URL('http://127.0.0.1:3000/') });
  const path = '../../../console/lib/selector-picker.js';
  picker = (await import(/* @vite-ignore */ path)) as Picker;
});

describe('selector picker words', () => {
  it('match samples are text, long ones cut with an ellipsis', () => {
    const long = 'A very long product name that goes on and on';
    const s = picker.describeCount({ count: 12, samples: [long, '$12', 'Short'] });
    expect(s).not.toContain('[object');
    expect(s).toBe('matches 12 elements: A very long product nam…, $12, Short, …');
    expect(picker.describeCount({ count: 2, samples: ['x', 'y'] }, true)).toBe('matches 2 elements in the items: x, y');
  });

  it('a box label is its tag and its text, cut at 40 characters', () => {
    const label = picker.boxLabel({ tag: 'span', text: 'Wireless over-ear headphones with noise cancelling, black' });
    expect(label).not.toContain('[object');
    expect(label).toBe('span “Wireless over-ear headphones with noise…”');
    expect(picker.boxLabel({ tag: 'img', text: '' })).toBe('img');
  });
});
