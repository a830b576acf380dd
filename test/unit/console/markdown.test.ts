import { beforeAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';

// The console's Markdown renderer (console/lib/markdown.js) on a server-side DOM: whatever the
// scraped Markdown holds, the output is built only from a fixed set of tags, with http(s) links
// that open in a new tab without an opener.

type Render = (src: string) => DocumentFragment;
let renderMarkdown: Render;
let doc: Document;

beforeAll(async () => {
  const { document, Node, DocumentFragment } = parseHTML('<!doctype html><html><body></body></html>');
  doc = document as unknown as Document;
  Object.assign(globalThis, { document, Node, DocumentFragment, location: new URL('http://127.0.0.1:3000/') });
  // A path in a variable: the console's modules are plain browser JavaScript, not part of the TS project.
  const path = '../../../console/lib/markdown.js';
  ({ renderMarkdown } = (await import(/* @vite-ignore */ path)) as { renderMarkdown: Render });
});

const render = (src: string) => {
  const box = doc.createElement('div');
  box.append(renderMarkdown(src));
  return box;
};
const ALLOWED = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'blockquote', 'pre', 'code', 'strong', 'em', 'del', 'a', 'hr', 'div', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'br', 'span']);

describe('console Markdown renderer', () => {
  it('renders the common blocks: headings, lists, code, quotes, tables, emphasis and links', () => {
    const box = render('# Title\n\nSome **bold**, *em*, `code` and [a link](https://example.com/a).\n\n- one\n- two\n  - nested\n\n1. first\n2. second\n\n> quoted\n\n```js\nconst x = 1 < 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n---\nSetext\n===');
    expect(box.querySelector('h1')!.textContent).toBe('Title');
    expect(box.querySelector('strong')!.textContent).toBe('bold');
    expect(box.querySelector('em')!.textContent).toBe('em');
    expect(box.querySelector('p code')!.textContent).toBe('code');
    expect(box.querySelectorAll('ul > li').length).toBeGreaterThanOrEqual(2);
    expect(box.querySelector('ul ul li')!.textContent).toBe('nested');
    expect(box.querySelectorAll('ol > li').length).toBe(2);
    expect(box.querySelector('blockquote')!.textContent).toContain('quoted');
    expect(box.querySelector('pre code')!.textContent).toBe('const x = 1 < 2;');
    expect(Array.from(box.querySelectorAll('td')).map((td) => td.textContent)).toEqual(['1', '2']);
    expect(box.querySelector('hr')).not.toBeNull();
    expect(Array.from(box.querySelectorAll('h1')).map((x) => x.textContent)).toEqual(['Title', 'Setext']);
    const a = box.querySelector('a')!;
    expect([a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel')]).toEqual(['https://example.com/a', '_blank', 'noopener noreferrer nofollow']);
  });

  it('never produces markup from the source: raw HTML is text, event handlers and scripts cannot appear', () => {
    const box = render('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\n<a href="javascript:alert(3)" onclick="x()">x</a> <iframe src="https://evil.example/"></iframe>\n\n| <b>h</b> |\n|---|\n| <svg onload=alert(4)> |');
    for (const el of Array.from(box.querySelectorAll('*'))) {
      expect(ALLOWED.has(el.tagName.toLowerCase())).toBe(true);
      for (const attr of Array.from(el.attributes)) expect(['href', 'target', 'rel', 'start', 'scope', 'class', 'data-lang']).toContain(attr.name);
    }
    expect(box.textContent).toContain('<script>alert(1)</script>');
    expect(box.textContent).toContain('onerror="alert(2)"');
  });

  it('links only to http(s): javascript:, data: and vbscript: URLs become plain text; images become links', () => {
    const box = render('[a](javascript:alert(1)) [b](data:text/html;base64,PHNjcmlwdD4=) [c](vbscript:msgbox) [d](JaVaScRiPt:alert(1)) ![pic](https://example.com/p.png) <https://example.com/auto> https://example.com/bare.');
    const hrefs = Array.from(box.querySelectorAll('a')).map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(['https://example.com/p.png', 'https://example.com/auto', 'https://example.com/bare']);
    expect(box.querySelector('img')).toBeNull();
    expect(box.textContent).toContain('[image: pic]');
    for (const a of Array.from(box.querySelectorAll('a'))) expect(a.getAttribute('rel')).toContain('noopener');
  });

  it('stays bounded on huge input', () => {
    const box = render('para\n\n'.repeat(20_000));
    expect(box.querySelectorAll('p').length).toBeLessThanOrEqual(5001);
    expect(box.textContent).toContain('too long to render');
  });
});
