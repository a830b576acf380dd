import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// Inline elements side by side with no space between, each holding words: a label and its value
// that the page's style lays out apart read as two words, not one ("PublisherHoughton"). Parts of
// one word, and a price written in parts, stay as they are.
const md = (body: string) => parsePage(load(`<body><article>${body}</article></body>`), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
const prose = '<p>A long enough paragraph about the book and its edition, with commas, details and a few more words to count as prose.</p>';

describe('words at the meeting of inline elements', () => {
  it('a label and a value in adjacent spans: two words', () => {
    const row = (k: string, v: string) => `<div class="row"><span class="name"><span>${k}</span></span><span class="value"><span>${v}</span></span></div>`;
    const out = md(`${prose}${row('Publisher', 'Houghton Mifflin')}${row('ISBN-13', '9780544103054')}${row('Format', 'Hardcover')}`);
    expect(out).toContain('Publisher Houghton Mifflin');
    expect(out).toContain('ISBN-13 9780544103054');
    expect(out).toContain('Format Hardcover');
  });

  it('a value that opens with a one-digit number or an initial: two words too', () => {
    const row = (k: string, v: string) => `<div class="row"><span class="name"><!--a--><span>${k}</span><!--b--></span><span class="value"><!--c--><span>${v}</span></span></div>`;
    const out = md(`${prose}${row('Author', 'J. B. Mackinnon')}${row('Item Length', '8.2 in')}<p><span>April 2, 2024</span><span>1 yr</span></p>`);
    expect(out).toContain('Author J. B. Mackinnon');
    expect(out).toContain('Item Length 8.2 in');
    expect(out).toContain('April 2, 2024 1 yr');
  });

  it('a word of text right before a styled element that opens with a word: apart', () => {
    const out = md(`${prose}<h3>Vous souhaitez<span>offrir ?</span></h3><p>Strong security<strong>Cons:</strong> price.</p>`);
    expect(out).toContain('Vous souhaitez offrir ?');
    expect(out).toContain('Strong security **Cons:** price.');
    // Not an ordinal or a footnote, nor digits before a styled suffix.
    expect(md(`${prose}<p>The 21<span>st</span> century, the 5<sup>th</sup> time, word<sup>12</sup>.</p>`)).toContain('The 21st century, the 5th time, word12.');
  });

  it('a word whose last letter a span splits off stays one word', () => {
    const out = md(`${prose}<p>Tools includin<span>g CRM</span> and automatio<span>n, email</span>.</p><p><span>includin</span><span>g CRM</span></p>`);
    expect(out).toContain('Tools including CRM and automation, email.');
    expect(out).toContain('including CRM');
  });

  it('a word styled in parts, a price in parts and a link inside a sentence stay as written', () => {
    const out = md(`${prose}<p><span class="drop">W</span><span>elcome</span> aboard, <b>bold</b>ly said. Price <span class="cur">$</span><span class="int">69</span><span class="dec">.00</span>, see <a href="/x">the terms</a>.</p>`);
    expect(out).toContain('Welcome aboard, **bold**ly said.');
    expect(out).toContain('Price $69.00, see');
  });
});
