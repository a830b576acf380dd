import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// A list of links right under a heading the story keeps is that heading's section (clean.ts
// headedList): a story's "References & Sources" came out as the heading alone, its links cut as a
// block of links. A related-stories heading still takes its list with it.
const md = (html: string) => parsePage(load(html), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
const para = (i: number) => `<p>Paragraph ${i} of the story, long enough to be prose, with commas, details and a few more words to count as such.</p>`;
const links = (n: number, host: string) => `<ul>${Array.from({ length: n }, (_, i) => `<li><a href="https://${host}/source-${i}">Source ${i} of the report</a></li>`).join('')}</ul>`;

describe('a heading and its list of links', () => {
  it('a story\'s references after a kept heading stay, up to a rule or the next heading', () => {
    const html = `<body><article><h1>Title</h1>${[1, 2, 3, 4, 5].map(para).join('')}<h2>References &amp; Sources</h2>${links(6, 'other.example')}<hr><h2>Notes</h2>${links(3, 'example.com')}</article></body>`;
    const m = md(html);
    expect(m).toContain('## References & Sources\n\n- [Source 0 of the report]');
    expect(m).toContain('[Source 5 of the report]');
    expect(m).toContain('## Notes\n\n- [Source 0 of the report](https://example.com/source-0)');
  });

  it('a related-stories heading goes with its list', () => {
    const html = `<body><article><h1>Title</h1>${[1, 2, 3, 4, 5].map(para).join('')}<h2>More Articles You Might Enjoy</h2>${links(4, 'example.com')}</article></body>`;
    const m = md(html);
    expect(m).toContain('Paragraph 5');
    expect(m).not.toContain('You Might Enjoy');
    expect(m).not.toContain('Source 0');
  });

  it('a list of links with more after it under the heading is judged as before', () => {
    const html = `<body><article><h1>Title</h1>${[1, 2, 3, 4, 5].map(para).join('')}<h2>Share</h2>${links(4, 'social.example')}<p>A closing paragraph of the story, long enough to be prose, with commas and a few words.</p></article></body>`;
    expect(md(html)).not.toContain('Source 0');
  });
});
