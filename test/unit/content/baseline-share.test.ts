import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { extractMainContent } from '../../../functions/core/content/main-content.js';

// The quality check against the page's declared content element (main-content.ts extractAfter):
// a selection holding under half of the page's prose, beside a <main> with twice its text and few
// links, gives way to that <main>. One block of a page (its FAQ) outscoring the rest of <main>
// came out alone.
const sentence = (topic: string, i: number) => `${topic} paragraph ${i} says what the service does, with commas, details and examples, in a sentence long enough to be prose for any reader.`;
const page = () => {
  const features = [1, 2, 3, 4, 5, 6].map((i) => `<section class="block-${i}"><h2>Feature ${i}</h2><p>${sentence('Feature', i)} ${sentence('More', i)}</p></section>`).join('');
  const faq = `<div class="qa-list">${[1, 2, 3, 4].map((i) => `<div class="qa"><h4>Question number ${i} about it</h4><p>${sentence('Answer', i)}, and more, and more, with commas, ${sentence('Also', i)}</p></div>`).join('')}</div>`;
  return `<html><body><header><nav><a href="/">Home</a><a href="/about">About</a></nav></header><main><h1>Our consulting</h1>${features}<section><div class="wrap"><div class="inner"><h2>Frequently asked</h2>${faq}</div></div></section></main><footer><a href="/privacy">Privacy</a></footer></body></html>`;
};

describe('the declared content element beside a selection of one block', () => {
  it('a <main> of sections wins over its FAQ block that holds under half of the prose', () => {
    const body = load(page())('body').get(0) as never;
    const r = extractMainContent(body, { base: 'https://example.com/consulting', url: 'https://example.com/consulting' });
    expect(r.html).toContain('Feature paragraph 1');
    expect(r.html).toContain('Answer paragraph 4');
    const md = parsePage(load(page()), 'https://example.com/consulting', { text: false, links: false, metadata: false }).markdown;
    expect(md).toContain('## Feature 6');
    expect(md).not.toContain('Privacy');
  });
});
