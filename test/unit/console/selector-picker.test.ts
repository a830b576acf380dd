import { beforeAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';

// The picker's words (console/lib/selector-picker.js) on a server-side DOM: match samples and box
// labels are the elements' text, never "[object HTMLSpanElement]" (issue 41 item 3).

interface Field { name: string; selector: string; attr?: string; sample: string }
interface Picker {
  describeCount(m: { count: number; samples: string[] } | null, scoped?: boolean): string;
  boxLabel(b: { tag: string; text: string }): string;
  itemChoiceLabel(it: { selector: string; count: number }): string;
  describeItem(it: { selector: string; count: number; fields: Field[] }): string;
  fieldsOfItem(fields: Field[]): Record<string, { selector: string; attr?: string }>;
  cssProblem(sel: string): string | null;
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

describe('the repeated item (issue 41 item 2)', () => {
  const item = {
    selector: 'div.card',
    count: 4,
    fields: [
      { name: 'title', selector: 'h3.title', sample: 'Desk' },
      { name: 'image', selector: 'img', attr: 'src', sample: '/img/desk-with-a-very-long-file-name.jpg' },
    ],
  };
  it('is offered with how many it matches and the fields inside it, in words', () => {
    expect(picker.itemChoiceLabel(item)).toBe('Use the repeated item: div.card (4 on the page)');
    expect(picker.describeItem(item)).toBe('It repeats 4 times; fields inside it: title (h3.title, “Desk”), image (img @src, “/img/desk-with-a-very-l…”).');
  });
  it('its fields become an extract step\'s fields', () => {
    expect(picker.fieldsOfItem(item.fields)).toEqual({ title: { selector: 'h3.title' }, image: { selector: 'img', attr: 'src' } });
  });
});

describe('an invalid selector is said beside the field (issue 41 item 4)', () => {
  it('names it as not valid CSS and where it breaks; a valid one is null', () => {
    expect(picker.cssProblem('h3[[bad')).toBe('“h3[[bad” is not valid CSS: check the square brackets [ ] of an attribute');
    expect(picker.cssProblem('li:nth-child(2')).toBe('“li:nth-child(2” is not valid CSS: a parenthesis ( ) is not closed');
    expect(picker.cssProblem('li.product > span.name')).toBeNull();
    expect(picker.cssProblem('')).toBeNull();
  });
});
