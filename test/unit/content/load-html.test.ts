import { describe, expect, it } from 'vitest';
import { htmlDepth, loadHtml, MAX_HTML_DEPTH } from '../../../functions/core/content/load-html.js';

// Deep nesting costs the HTML5 tree builder time that grows with the square of the depth (20,000
// nested divs: 7 s on the thread that serves everyone). One forward pass refuses such a page first.
describe('htmlDepth and loadHtml', () => {
  const nested = (n: number, tag = 'div') => `<html><body>${`<${tag}>`.repeat(n)}deep${`</${tag}>`.repeat(n)}</body></html>`;

  it('counts real nesting', () => {
    expect(htmlDepth(nested(40))).toBe(40);
    expect(htmlDepth('<div><section><article><p>a<p>b</article></section></div>')).toBe(3);
    expect(htmlDepth('<div a="x>y" b=\'<div>\'><span/>text</div>')).toBe(1);
  });

  it('does not count what never piles up: void elements, implied end tags, raw text, comments', () => {
    const sloppy = `<html><body>${'<p>para'.repeat(5000)}<ul>${'<li>item'.repeat(5000)}</ul><table>${'<tr><td>a<td>b'.repeat(3000)}</table>${'<br><img src=x>'.repeat(5000)}</body></html>`;
    expect(htmlDepth(sloppy)).toBeLessThan(5);
    const raw = `<script>${"document.write('<div>');".repeat(5000)}</script><style>/* <div> */</style><!-- ${'<div>'.repeat(5000)} --><div>x</div>`;
    expect(htmlDepth(raw)).toBe(1);
    expect(() => loadHtml(sloppy)).not.toThrow();
  });

  it(`refuses a page nested more than ${MAX_HTML_DEPTH} deep with 422 document_too_complex, before the tree builder sees it`, () => {
    expect(() => loadHtml(nested(20_000), 'https://deep.example/')).toThrow(expect.objectContaining({ status: 422, code: 'document_too_complex', message: expect.stringContaining(`more than ${MAX_HTML_DEPTH} deep`) }));
    // 2,000 deep is still read.
    expect(loadHtml(nested(2_000))('body').text()).toBe('deep');
    // The scan stops once past the limit: a 2 MB bomb answers in one pass.
    expect(htmlDepth(nested(400_000))).toBe(MAX_HTML_DEPTH + 1);
  });
});
