import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

const prose = '<p>A long enough paragraph about moving house and what it costs in each state of the country, with numbers and a few more words.</p>';
const md = (body: string) => parsePage(load(`<body><article>${prose}${body}${prose}</article></body>`), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown.split('\n\n').slice(1, -1).join('\n\n');

describe('tables that are layout, not data', () => {
  it('a table of one cell is a box drawn with a table: its content as blocks, not a one-cell GFM table', () => {
    expect(md('<table><tr><td><b>Best Price Guarantee</b><br>Find a lower price for the same move? We match it.</td></tr></table>')).toBe('**Best Price Guarantee**  \nFind a lower price for the same move? We match it.');
    // A forum's quote box: its author line and paragraphs stay blocks.
    expect(md('<table class="quote"><tbody><tr><td>Originally Posted by <b>Shancock</b><p>So could it be as simple as that?</p><p>Where will I run into a snag?</p></td></tr></tbody></table>')).toBe('Originally Posted by **Shancock**\n\nSo could it be as simple as that?\n\nWhere will I run into a snag?');
  });

  it('a one-column table whose cells hold blocks is a stack of boxes: a page laid out in a table keeps its inner tables and paragraphs', () => {
    // Hacker News draws its page so: the story list is a table inside the layout's second row.
    const stories = '<table class="itemlist"><tr><td>1.</td><td><a href="https://a.example/">Alpha is hiring</a></td></tr><tr><td>2.</td><td><a href="https://b.example/">Beta is hiring</a></td></tr></table>';
    const out = md(`<table id="main"><tr><td><p>These are jobs at startups.</p></td></tr><tr><td>${stories}</td></tr></table>`);
    expect(out).toBe('These are jobs at startups.\n\n| 1. | [Alpha is hiring](https://a.example/) |\n| --- | --- |\n| 2. | [Beta is hiring](https://b.example/) |');
    // A board's posts, one row each: each post its own blocks, not one table row of run-on text.
    const post = (who: string, text: string) => `<tr><td><div class="who"><b>${who}</b> 2 years ago</div><div class="msg"><p>${text}</p></div></td></tr>`;
    expect(md(`<table class="board">${post('Ann', 'No stream link this time.')}${post('Bob', 'The timing feels early.')}</table>`)).toBe('**Ann** 2 years ago\n\nNo stream link this time.\n\n**Bob** 2 years ago\n\nThe timing feels early.');
  });

  it('a row the page hides stays out of such a table (the cleaner left it out)', () => {
    const out = md('<table id="main"><tr><td><p>The first row holds the start of the story.</p></td></tr><tr style="display:none"><td><div>Buy the new phone today</div></td></tr><tr><td><p>The last row holds its end.</p></td></tr></table>');
    expect(out).toBe('The first row holds the start of the story.\n\nThe last row holds its end.');
  });

  it('a table of data stays a table: two cells, two rows, or a caption; the caption bold as the rest of the document writes it', () => {
    expect(md('<table><tr><td>a</td><td>b</td></tr></table>')).toBe('| a | b |\n| --- | --- |');
    expect(md('<table><tr><th>Name</th></tr><tr><td>Ada</td></tr></table>')).toBe('| Name |\n| --- |\n| Ada |');
    expect(md('<table><caption>Rates</caption><tr><td>4%</td></tr></table>')).toBe('**Rates**\n\n| 4% |\n| --- |');
  });
});
