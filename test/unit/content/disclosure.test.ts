import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// A FAQ's question or an accordion section's title in the button that opens it (disclosure.ts) is
// content: the page shows it as the heading of what the button opens. Other buttons stay out.
const md = (body: string) => parsePage(load(`<body><main><h1>Guide</h1>${body}</main></body>`), 'https://example.com/guide', { text: false, links: false, metadata: false }).markdown;
const prose = '<p>An introduction long enough to be prose, with commas, details and a few more words, so that the page reads as a page.</p>';
const answer = (i: number) => `<p>Answer ${i}, a full sentence or two that explains the matter, with commas and details, as answers do.</p>`;

describe('disclosure triggers', () => {
  it('the ARIA accordion pattern: a button in a heading is the heading\'s text', () => {
    const item = (i: number) => `<h3><button aria-expanded="false" aria-controls="p${i}">Section ${i} title</button></h3><div id="p${i}" role="region" aria-labelledby="b${i}" hidden>${answer(i)}</div>`;
    const out = md(`${prose}${[1, 2, 3].map(item).join('')}`);
    expect(out).toContain('### Section 1 title\n\nAnswer 1,');
    expect(out).toContain('### Section 3 title\n\nAnswer 3,');
  });

  it("a question in a button that a framework's click handler toggles (Alpine, Vue, onclick)", () => {
    const handlers = [`@click='toggleFaq(0)'`, `v-on:click="open = !open"`, `onclick="expandAnswer(this)"`];
    const item = (i: number) => `<div><button class="group flex w-full" ${handlers[i - 1]}><span>Can I ask question ${i}?</span></button><div x-show="openFaqs[${i}]">${answer(i)}</div></div>`;
    const out = md(`${prose}${[1, 2, 3].map(item).join('')}`);
    for (const i of [1, 2, 3]) expect(out).toContain(`Can I ask question ${i}?`);
    // A click handler that opens nothing is no toggle: its button stays out.
    expect(md(`${prose}<button onclick="openChat()">Need help?</button>`)).not.toContain('Need help');
  });

  it('a button in a heading whose label is indented in the source (white space before its words)', () => {
    const item = (i: number) => `<h3>\n      <button aria-expanded="false" aria-controls="p${i}">\n            <span>\n                Question ${i}: how effective is it?\n            </span>\n            <span aria-hidden="true"><svg><path d="M0"/></svg></span>\n        </button>\n    </h3><div id="p${i}" role="region" hidden>${answer(i)}</div>`;
    const out = md(`${prose}${[1, 2, 3].map(item).join('')}`);
    for (const i of [1, 2, 3]) expect(out).toContain(`### Question ${i}: how effective is it?\n\nAnswer ${i},`);
  });

  it('a FAQ whose question is a heading inside the button, or the button\'s own words ending in "?"', () => {
    const withHeading = (i: number) => `<div class="faq-item"><button type="button" aria-expanded="false"><div><h3>Can I ask question ${i}?</h3></div><svg></svg></button><div class="collapse">${answer(i)}</div></div>`;
    const plain = (i: number) => `<div class="faq-item"><button class="q" aria-controls="a${i}" aria-expanded="false"><span>How does thing ${i} work?</span></button><div id="a${i}" class="accordion-content">${answer(i)}</div></div>`;
    const out = md(`${prose}${[1, 2].map(withHeading).join('')}${[3, 4].map(plain).join('')}`);
    expect(out).toContain('### Can I ask question 1?\n\nAnswer 1,');
    expect(out).toContain('How does thing 4 work?\n\nAnswer 4,');
  });

  it('the closed answer a trigger names (aria-controls = its id) is shown, however it is classed', () => {
    const item = (i: number) => `<h3><button aria-expanded="false" aria-controls="faq-${i}-collapsible">Is question ${i} answered?</button></h3>` +
      `<div class="wrap-x" style="max-height:0px"><div class="cdr-accordion__content_15 closed" aria-hidden="true" id="faq-${i}-collapsible">${answer(i)}</div></div>`;
    const out = md(`${prose}${[1, 2].map(item).join('')}<div aria-hidden="true" id="other">A decorative caption nobody reads, not opened by any button on the page.</div>`);
    expect(out).toContain('### Is question 1 answered?\n\nAnswer 1,');
    expect(out).toContain('Answer 2,');
    expect(out).not.toContain('decorative caption');
  });

  it('a hidden block right after a question (a heading or a line ending in "?") is its answer', () => {
    const item = (i: number) => `<h3>Can the diffuser ${i} work outdoors?<span class="bullet"></span></h3><div class="content" style="display: none;">${answer(i)}</div>`;
    const line = `<div class="q">How long does the charge last?</div><div style="visibility:hidden">${answer(3)}</div>`;
    const out = md(`${prose}${[1, 2].map(item).join('')}${line}<h3>Our newsletter</h3><div style="display:none"><p>Sign up for ten percent off your first order, sent once a week at most.</p></div>`);
    expect(out).toContain('### Can the diffuser 1 work outdoors?\n\nAnswer 1,');
    expect(out).toContain('How long does the charge last?\n\nAnswer 3,');
    expect(out).not.toContain('ten percent off');
  });

  it('an accordion section titled in its button: the title and the closed section it names', () => {
    const item = (i: number) => `<div id="item-${i}"><button aria-controls="item-${i}-content" type="button"><span>Built with partner ${i}</span><svg></svg></button>` +
      `<div aria-hidden="true" hidden id="item-${i}-content"><div class="rich-text">${answer(i)}</div></div></div>`;
    const out = md(`${prose}${[1, 2].map(item).join('')}<div><button aria-controls="more">Show more</button><div id="more"><p>Hidden extra words for readers who ask, long enough to be a paragraph here.</p></div></div>`);
    expect(out).toContain('Built with partner 1\n\nAnswer 1,');
    expect(out).toContain('Built with partner 2\n\nAnswer 2,');
    expect(out).not.toContain('Show more');
  });

  it('the whole page (only_main_content false) has the questions too', () => {
    const html = `<body><main><h1>Guide</h1>${prose}<div><button aria-expanded="false"><h3>Can I ask a question?</h3></button><div>${answer(1)}</div></div><button>Add to cart</button></main></body>`;
    const out = parsePage(load(html), 'https://example.com/guide', { text: false, links: false, metadata: false, content: { onlyMainContent: false } }).markdown;
    expect(out).toContain('### Can I ask a question?');
    expect(out).not.toContain('Add to cart');
  });

  it('a menu toggle, a "show more" and a buy button stay out', () => {
    const out = md(`${prose}<button aria-expanded="false">Menu</button><button aria-expanded="false" aria-controls="x">Show more</button><button>Add to cart</button><button data-toggle="collapse">Filters</button>${answer(1)}`);
    for (const word of ['Menu', 'Show more', 'Add to cart', 'Filters']) expect(out).not.toContain(word);
  });
});

describe('a closed <details> that is a drop-down menu', () => {
  it("a listing's filter menus (closed <details> of links, a `…-menu` element, role=menu) are left out, however many choices they hold", () => {
    const repo = (i: number) =>
      `<article class="Box-row"><h2><a href="/owner${i}/tool-${i}">owner${i} / tool-${i}</a></h2><p>Tool ${i}: a small helper.</p><div class="f6"><span>Python</span> <a href="/owner${i}/tool-${i}/stargazers">${1000 + i}</a> <a href="/owner${i}/tool-${i}/forks">${200 + i}</a> <span>Built by <a href="/u${i}">u${i}</a></span> <span>${100 + i} stars today</span></div></article>`;
    const choices = (n: number) => Array.from({ length: n }, (_, i) => `<a href="/trending/lang-${i}">Language ${i}</a>`).join('');
    const menus =
      `<details class="select-menu"><summary>Spoken language: Any</summary><div class="select-menu-modal"><span>Select a spoken language</span><div class="select-menu-list">${choices(250)}</div></div></details>` +
      `<details class="select-menu"><summary>Language: Any</summary><details-menu><span>Select a language</span>${choices(250)}</details-menu></details>` +
      '<details><summary>Date range: Today</summary><div role="menu"><a href="?since=daily">Today</a><a href="?since=weekly">This week</a></div></details>';
    const html = `<body><header><nav><a href="/">Home</a></nav></header><div class="hero"><h1>Trending</h1><p>See what the community is most excited about today.</p></div><div class="container"><div class="Box"><div class="Box-header"><nav><a href="/trending">Repositories</a><a href="/trending/developers">Developers</a></nav><div>${menus}</div></div>${Array.from({ length: 25 }, (_, i) => repo(i)).join('')}</div></div><footer><a href="/about">About</a></footer></body>`;
    const out = parsePage(load(html), 'https://code.example/trending', { text: false, links: false, metadata: false }).markdown;
    expect(out).toContain('owner24 / tool-24');
    expect(out).toContain('Tool 3: a small helper.');
    expect(out).not.toMatch(/Language 7|Select a spoken language|Spoken language: Any|Date range|This week/);
  });

  it('a closed <details> whose body is prose with a link or two (a FAQ answer) is content', () => {
    const out = md(`${prose}<details><summary>How do I return an item?</summary>${answer(1)}<p>See <a href="/returns">returns</a> and <a href="/help">help</a>.</p></details>`);
    expect(out).toContain('Answer 1, a full sentence');
  });
});
