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

  it('a table of data stays a table: two cells, two rows, or a caption; the caption bold as the rest of the document writes it', () => {
    expect(md('<table><tr><td>a</td><td>b</td></tr></table>')).toBe('| a | b |\n| --- | --- |');
    expect(md('<table><tr><th>Name</th></tr><tr><td>Ada</td></tr></table>')).toBe('| Name |\n| --- |\n| Ada |');
    expect(md('<table><caption>Rates</caption><tr><td>4%</td></tr></table>')).toBe('**Rates**\n\n| 4% |\n| --- |');
  });
});
