import { describe, expect, it } from 'vitest';
import { verifyBoxes } from '../../../functions/core/studio/verify-boxes.js';

// The preview's boxes are proposed from page data (ids, classes, attributes): each selector is
// held to a tenant selector's static limits before it is counted (issue 37 finding 2).
const HTML = '<html><body><ul><li class="p"><b class="n">A</b></li><li class="p"><b class="n">B</b></li></ul><h1>T</h1></body></html>';
const box = (over: Record<string, unknown>) => ({ selector: 'h1', tag: 'h1', text: 'T', x: 0, y: 0, w: 10, h: 10, group: null, item: null, ...over });

describe('verifyBoxes', () => {
  it('drops a box whose selector is past the static limits, and a group or item past them', () => {
    const { elements } = verifyBoxes({
      html: HTML,
      width: 100,
      height: 100,
      elements: [
        box({ selector: 'h1:has(*:has(b))' }),
        box({ group: { selector: 'b:has(*:has(i))', count: 2 }, item: { selector: 'li:has(b:has(i))', count: 2, fields: [] } }),
      ],
    });
    expect(elements).toEqual([box({})]);
  });

  it('keeps an item that matches more than one element, with the fields found inside it', () => {
    const item = { selector: 'li.p', count: 2, fields: [{ name: 'n', selector: 'b.n', sample: 'A' }, { name: 'x', selector: 'i.missing', sample: '' }, { name: 'bad', selector: 'b:has(*:has(i))', sample: '' }] };
    const { elements, snapshot } = verifyBoxes({ html: HTML, width: 100, height: 100, elements: [box({ selector: 'li.p:nth-of-type(1) > b.n', text: 'A', item })] });
    expect(elements[0]!.item).toEqual({ selector: 'li.p', count: 2, fields: [{ name: 'n', selector: 'b.n', sample: 'A' }] });
    expect(snapshot).toContain('<h1>T</h1>');
  });

  it('drops a box not unique in the HTML or outside the screenshot', () => {
    const { elements } = verifyBoxes({ html: HTML, width: 100, height: 100, elements: [box({ selector: 'li.p' }), box({ y: 100 })] });
    expect(elements).toEqual([]);
  });

  it('stops at its budget with what it verified, and says so', () => {
    const all = verifyBoxes({ html: HTML, width: 100, height: 100, elements: [box({})] });
    expect(all).toMatchObject({ elements: [box({})], truncated: false });
    const none = verifyBoxes({ html: HTML, width: 100, height: 100, elements: [box({})], budgetMs: -1 });
    expect(none).toMatchObject({ elements: [], truncated: true });
    expect(none.snapshot).toContain('<h1>T</h1>');
  });
});
