import { describe, expect, it } from 'vitest';
import { htmlToMarkdown } from '../../../functions/core/content/markdown.js';
import { PIECE_CHARS, markdownPieces } from '../../../functions/core/content/markdown-chunks.js';

// A large fragment converts in pieces (markdown-chunks.ts): the same markdown as converting its
// parts one by one, cut only between blocks, tables and lists continued across pieces.
const md = (html: string) => htmlToMarkdown(html, 'https://e.test/docs/');

const section = (i: number) =>
  `<h2>Section ${i}</h2><p>Text of section ${i}, with <a href="/s/${i}">a link</a> and <em>emphasis</em>, long enough to be a paragraph.</p>` +
  `<pre data-lang="python">print(${i})\n\nprint("done")</pre><ul><li>first of ${i}</li><li>second of ${i}<ul><li>nested</li></ul></li></ul>` +
  `<table><tr><th>k</th><th>v</th></tr><tr><td>a${i}</td><td>b|${i}</td></tr></table>`;

describe('markdown of a large fragment, in pieces', () => {
  it('cuts a long page of sections into pieces and writes what each section writes alone, in order', () => {
    const n = 400;
    const html = Array.from({ length: n }, (_, i) => section(i)).join('');
    expect(markdownPieces(html).length).toBeGreaterThan(3);
    expect(md(html)).toBe(Array.from({ length: n }, (_, i) => md(section(i))).join('\n\n'));
    // The same inside wrappers: a <div> is cut between its children.
    expect(md(`<div><div>${html}</div></div>`)).toBe(md(html));
  });

  it('keeps a run of inline text one paragraph: text and links at the top level, cut (when longer than a piece) only at a space or a line break', () => {
    const inline = Array.from({ length: 3000 }, (_, i) => `word${i} <a href="/w/${i}">link${i}</a> `).join('');
    const out = md(`<p>Before.</p>${inline}<p>After.</p>`);
    expect(out.split('\n\n')).toHaveLength(3);
    expect(out).toContain('word2999 [link2999](https://e.test/w/2999)');
    // An index of 10,000 links in one block: one paragraph, every link in order.
    const links = (sep: string) => `<div>${Array.from({ length: 10_000 }, (_, i) => `<a href="/p/${i}">Page ${i}</a>`).join(sep)}</div>`;
    expect(markdownPieces(links(' | ')).length).toBeGreaterThan(3);
    const spaced = md(links(' | '));
    expect(spaced).not.toContain('\n\n');
    expect(spaced.replace(/\n/g, ' ').split(' | ')).toEqual(Array.from({ length: 10_000 }, (_, i) => `[Page ${i}](https://e.test/p/${i})`));
    // Links with only a space between them: still one paragraph.
    expect(md(links(' '))).not.toContain('\n\n');
    // In bare <span>s (as the serializer writes a long run): the same paragraph.
    const wrapped = `<div><span>${Array.from({ length: 10_000 }, (_, i) => `<a href="/p/${i}">Page ${i}</a>`).join(' | ')}</span></div>`;
    expect(md(wrapped)).toBe(spaced);
    // A block right where a run was cut starts apart from it (a blank line, not a line break).
    const run = Array.from({ length: 4000 }, (_, i) => `<a href="/p/${i}">P${i}</a>`).join('<br>');
    const pieces = markdownPieces(`<div>${run}</div>`);
    const cutAt = pieces[0].html.split('<br>').length;
    const withBlock = `<div>${run.split('<br>').slice(0, cutAt).join('<br>')}<br><h2>Next part</h2><p>${'After. '.repeat(3000)}</p></div>`;
    const cut = markdownPieces(withBlock);
    expect(cut[1].html.startsWith('<h2>')).toBe(true);
    expect(md(withBlock)).toContain(`[P${cutAt - 1}](https://e.test/p/${cutAt - 1})\n\n## Next part\n\nAfter.`);
    // Separated by line breaks: a hard line break between every two, also where the pieces meet.
    const lines = md(links('<br>')).split('\n');
    expect(lines).toHaveLength(10_000);
    expect(lines.every((l, i) => l === `[Page ${i}](https://e.test/p/${i})${i < 9_999 ? '  ' : ''}`)).toBe(true);
  });

  it('writes a table of 5,000 rows as one table: its header once, every row in order', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => `<tr><td>${i}</td><td>row ${i}</td></tr>`).join('');
    const out = md(`<p>Intro.</p><table><thead><tr><th>n</th><th>name</th></tr></thead><tbody>${rows}</tbody></table><p>End.</p>`);
    const lines = out.split('\n');
    expect(lines.slice(0, 4)).toEqual(['Intro.', '', '| n | name |', '| --- | --- |']);
    expect(lines.filter((l) => l.startsWith('|'))).toHaveLength(5002);
    expect(lines.filter((l) => /^\| --- \| --- \|$/.test(l))).toHaveLength(1);
    expect(lines.slice(-3)).toEqual(['| 4999 | row 4999 |', '', 'End.']);
  });

  it('writes a list of 5,000 items as one list; an ordered one numbered on across pieces', () => {
    const items = Array.from({ length: 5000 }, (_, i) => `<li>item ${i + 1}</li>`).join('');
    const bullets = md(`<ul>${items}</ul>`).split('\n');
    expect(bullets).toHaveLength(5000);
    expect(bullets.every((l, i) => l === `- item ${i + 1}`)).toBe(true);
    const numbered = md(`<ol start="3">${items}</ol>`).split('\n');
    expect(numbered).toHaveLength(5000);
    expect(numbered.every((l, i) => l === `${i + 3}. item ${i + 1}`)).toBe(true);
  });

  it('leaves a fragment of up to two pieces whole', () => {
    const html = `<p>${'x'.repeat(PIECE_CHARS)}</p>`;
    expect(markdownPieces(html)).toEqual([{ html }]);
  });
});
