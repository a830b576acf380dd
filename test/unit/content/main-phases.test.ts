import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import type { DomNode } from '../../../functions/core/content/dom.js';
import { isNonContent } from '../../../functions/core/content/prepare.js';
import { classWeight, finalScore, linkDensity, scoreTree } from '../../../functions/core/content/score.js';
import { selectMain, signature } from '../../../functions/core/content/select.js';
import { cleanSelection } from '../../../functions/core/content/clean.js';
import { serializeContent } from '../../../functions/core/content/serialize.js';
import { beforeTitle, extractMainContent } from '../../../functions/core/content/main-content.js';

const el = (html: string, sel: string) => load(html)(sel).get(0) as unknown as DomNode;
const body = (html: string) => {
  const $ = load(html);
  return { $, body: $('body').get(0) as unknown as DomNode, node: (sel: string) => $(sel).get(0) as unknown as DomNode };
};
const prose = (words: string, n = 3) => Array.from({ length: n }, (_, i) => `<p>${words}, sentence ${i + 1}, with commas, and enough text to count as a paragraph of prose.</p>`).join('');

describe('prepare: what is never content', () => {
  const strict = { classRules: true };
  it.each([
    ['<nav id="x">menu</nav>', 'nav'],
    ['<aside id="x">side</aside>', 'aside'],
    ['<footer id="x">foot</footer>', 'footer'],
    ['<div id="x" role="navigation">links</div>', 'role navigation'],
    ['<div id="x" hidden>hidden</div>', 'hidden attribute'],
    ['<div id="x" aria-hidden="true">icons</div>', 'aria-hidden'],
    ['<div id="x" class="absolute opacity-0 group-hover:opacity-100"><h4>View Details</h4></div>', "a card's hover overlay"],
    ['<a id="x" href="/a" aria-hidden="true">Read more</a>', 'aria-hidden link a keyboard still reaches'],
    ['<div id="x"><span>+ Add to Wishlist</span></div>', "a card's control"],
    ['<label id="x"><input type="checkbox"> Compare</label>', "a card's compare box"],
    ['<div id="x"><span>Loading…</span></div>', "a spinner's words"],
    ['<div id="x" style="color: red; display: none">x</div>', 'display:none'],
    ['<div id="x" class="share-bar">share</div>', 'share bar'],
    ['<div id="x" class="c-sidebar__inner">side</div>', 'sidebar class'],
    ['<div id="x" class="cookie-consent">cookies</div>', 'cookie banner'],
    ['<section id="x" class="related-posts">related</section>', 'related'],
    ['<div id="x" class="ad-slot">ad</div>', 'ad'],
  ])('drops %s (%s)', (html) => {
    expect(isNonContent(el(`<body>${html}</body>`, '#x'), false, strict)).toBe(true);
  });

  it.each([
    ['<div id="x" class="article-content">text</div>', 'content class wins over nothing'],
    ['<div id="x" class="sidebar-content">text</div>', 'furniture and content names: kept for scoring'],
    ['<div id="x" class="download-box">x</div>', 'short words only as whole parts (no "ad" in "download")'],
    ['<article id="x" class="comments">text</article>', 'article is never dropped by class'],
    ['<a id="x" href="/story" aria-hidden="true" tabindex="-1">The blurb of a card</a>', "a card's mouse-only second link: shown"],
    ['<h2 id="x">Compare</h2>', 'a heading is never a control'],
    ['<table><tr><td id="x">Quantity</td><td>2</td></tr></table>', "a table's cell is never a control"],
    ['<p id="x">Compare the two plans before you add one to your cart.</p>', 'a sentence that names controls'],
    ['<p id="x">Loading the dishwasher takes ten minutes.</p>', 'a sentence that opens with the word'],
    ['<div id="x" class="product-single__meta">price</div>', 'meta is a scoring hint, not a drop'],
    ['<div id="x" class="wpb_column col no-extra-padding">text</div>', 'a layout modifier (no-…) names no role'],
    ['<div id="x" class="opacity-0 transition-opacity">text</div>', 'a block a script fades in'],
    ['<div id="x" class="wrap has-sidebar with-header">text</div>', 'has-… and with-… style the layout'],
    ['<div id="x" class="layout layout--header-fixed-spacing">text</div>', '…-spacing, …-padding style the layout'],
    ['<div id="x" class="kt-accordion-wrap kt-pane-header-alignment-left">text</div>', '…-alignment-…, …-align-…, …-position-… style the layout'],
  ])('keeps %s (%s)', (html) => {
    expect(isNonContent(el(`<body>${html}</body>`, '#x'), false, strict)).toBe(false);
  });

  it('reads a class that names a layout (c-layout-sidebar-left: the wrapper of a page laid out with a left sidebar, holding its cards) as no furniture; a sidebar is', () => {
    const cards = Array.from({ length: 5 }, (_, i) => `<div class="card"><h3><a href="/step-${i}">Step ${i}</a></h3><p>Five quick tips for step ${i}.</p></div>`).join('');
    const page = `<body><div id="layout" class="c-layout-sidebar-left"><div class="c-layout-sidebar-top"><h2>Pages</h2><nav><a href="/a">A</a></nav></div><div class="c-layout-column">${cards}</div></div><div id="side" class="c-sidebar"><a href="/a">A</a></div></body>`;
    expect(isNonContent(el(page, '#layout'), false, strict)).toBe(false);
    expect(isNonContent(el(page, '#side'), false, strict)).toBe(true);
  });

  it('reads a link label indented in the source by its words: a long one is no call to action, a short one is', () => {
    const indent = `\n${' '.repeat(80)}`;
    const long = `<a id="x" class="btn" href="/report">${indent}<span>Read the full report on the state of the oceans this year and what it means</span></a>`;
    expect(isNonContent(el(`<body>${long}</body>`, '#x'), false, strict)).toBe(false);
    expect(isNonContent(el(`<body><a id="x" class="btn" href="/start">${indent}<span>Get started</span></a></body>`, '#x'), false, strict)).toBe(true);
  });

  it('keeps a block named only by a weak furniture word (footer, widget) that holds prose, and its parts; drops it without prose, and strong furniture with prose', () => {
    const long = (w: string) => `<p>${`${w} and the venue serves a small menu of dishes, weaving other influences into the mix. `.repeat(3)}</p>`;
    const { body: b, node } = body(`<body>
      <div id="venues" class="page1-footer"><div class="venue"><div id="part" class="venue-widget"><h3>8282</h3><p>Short line.</p></div>${long('Korean')}</div></div>
      <div id="product" class="c-product-widget"><div>${long('This year')}</div></div>
      <div id="footer" class="site-footer"><p>About us: a small shop.</p><a href="/c">Contact</a></div>
      <div id="comments" class="comments-widget">${long('I loved it')}${long('Me too')}</div></body>`);
    const { dropped } = scoreTree(b, strict);
    for (const id of ['#venues', '#part', '#product']) expect(dropped.has(node(id))).toBe(false);
    for (const id of ['#footer', '#comments']) expect(dropped.has(node(id))).toBe(true);
  });

  it("keeps a page builder's heading component (a block named a widget that is one heading), not one naming a related section", () => {
    const long = (w: string) => `<p>${`${w} is planned for one person, and the recipes can be doubled or tripled as needed. `.repeat(3)}</p>`;
    // Elementor: every part of the page is a widget in a section of its own.
    const section = (widget: string) => `<section class="elementor-section"><div class="elementor-widget-wrap">${widget}</div></section>`;
    const heading = (id: string, text: string) => section(`<div id="${id}" class="elementor-element elementor-widget elementor-widget-heading"><div class="elementor-widget-container"><h2 class="elementor-heading-title">${text}</h2></div></div>`);
    const text = (w: string) => section(`<div class="elementor-element elementor-widget elementor-widget-text-editor"><div class="elementor-widget-container">${long(w)}</div></div>`);
    const { body: b, node } = body(`<body><div class="site-content">
      ${heading('h-rack', 'Residential Power Rack')}${text('The rack')}${heading('h-bench', 'Flat Weight Bench')}${text('The bench')}
      ${heading('h-news', 'Latest News')}${section('<div id="two" class="elementor-widget"><div><h2>One</h2><p>Two</p></div></div>')}</div></body>`);
    const { dropped } = scoreTree(b, strict);
    const gone = (id: string) => {
      for (let n: DomNode | null | undefined = node(id); n; n = n.parent) if (dropped.has(n)) return true;
      return false;
    };
    for (const id of ['#h-rack', '#h-bench']) expect(gone(id)).toBe(false);
    // "Latest News" heads the site's other posts; a widget holding more than a heading is judged as before.
    for (const id of ['#h-news', '#two']) expect(gone(id)).toBe(true);
  });

  it('keeps a block named as furniture that holds three paragraphs of prose (a layout named for its sidebar); not comments, related stories or an author box', () => {
    const long = (w: string) => `<p>${`${w} is planned for one person, and the recipes can be doubled or tripled as needed. `.repeat(3)}</p>`;
    const three = (w: string) => [1, 2, 3].map((i) => long(`${w} ${i}`)).join('');
    const { body: b, node } = body(`<body><main>
      <section id="layout" class="inline-and-sidebar-container"><div class="col">${three('The meal plan')}</div></section>
      <div id="side" class="sidebar">${long('A side note')}${long('Another note')}</div>
      <div id="related" class="related-sidebar">${three('Teaser')}</div>
      <div id="bio" class="author-box sidebar">${three('Our author')}</div></main></body>`);
    const { dropped } = scoreTree(b, strict);
    expect(dropped.has(node('#layout'))).toBe(false);
    for (const id of ['#side', '#related', '#bio']) expect(dropped.has(node(id))).toBe(true);
  });

  it('looks at a bounded number of nodes for that prose: three paragraphs after 2,500 other nodes do not count', () => {
    const three = [1, 2, 3].map((i) => `<p>${`Paragraph ${i} of the layout's story, long enough to read as prose on its own. `.repeat(3)}</p>`).join('');
    const filler = '<span>.</span>'.repeat(2500);
    const { body: b, node } = body(`<body><div id="first" class="inline-and-sidebar-container">${three}${filler}</div><div id="late" class="inline-and-sidebar-container">${filler}${three}</div></body>`);
    const { dropped } = scoreTree(b, strict);
    expect(dropped.has(node('#first'))).toBe(false);
    expect(dropped.has(node('#late'))).toBe(true);
  });

  it('keeps a <header> inside the article, drops the page masthead; the lenient pass ignores class rules', () => {
    const h = el('<body><header id="x">site</header></body>', '#x');
    expect(isNonContent(h, false, strict)).toBe(true);
    expect(isNonContent(h, true, strict)).toBe(false);
    const c = el('<body><div id="x" class="comments">thread</div></body>', '#x');
    expect(isNonContent(c, false, strict)).toBe(true);
    expect(isNonContent(c, false, { classRules: false })).toBe(false);
  });

  it("drops a list of choices (a grid's facet values, each a box to tick with a short label), and counts its boxes as its block's form controls", () => {
    const facet = (id: string, values: string[], box = '<input type="checkbox">') => `<ul id="${id}">${values.map((v) => `<li><label>${box}<span>${v}</span></label></li>`).join('')}</ul>`;
    const { body: b, node } = body(`<body><div id="panel"><h3>Material</h3>${facet('m', ['corduroy', 'canvas', 'wool'])}</div>
      ${facet('t', ['Check the spring tides', 'Print the pocket tables', 'Send the tables'], '<input type="checkbox" disabled>')}
      ${facet('two', ['wool', 'canvas'])}
      <ol id="c">${[1, 2, 3].map((i) => `<li><input type="checkbox" id="f${i}"><div><p>Comment ${i}: ${'the stilling well silts up after a westerly blow. '.repeat(2)}</p></div></li>`).join('')}</ol></body>`);
    const scored = scoreTree(b, strict);
    expect(scored.dropped.has(node('#m'))).toBe(true);
    expect(scored.stats.get(node('#panel'))!.inputs).toBe(3);
    // A task list's disabled boxes, two values only, a CSS toggle beside each long comment: kept.
    expect(scored.dropped.has(node('#t'))).toBe(false);
    expect(scored.dropped.has(node('#two'))).toBe(false);
    expect(scored.dropped.has(node('#c'))).toBe(false);
    expect(scored.stats.get(node('#t'))!.inputs).toBe(0);
  });

  it('drops what the caller excluded', () => {
    const x = el('<body><div id="x">text</div></body>', '#x');
    expect(isNonContent(x, false, { classRules: true, excluded: new Set([x]) })).toBe(true);
  });
});

describe('score: measures and candidate scores', () => {
  it('measures text, link text, commas, paragraphs and form fields, skipping dropped subtrees', () => {
    const { body: b, node } = body('<body><div id="c"><p>One, two, three <a href="/x">link text</a> end.</p><nav>menu menu menu</nav><input type="text"><button>Go</button></div></body>');
    const scored = scoreTree(b, { classRules: true });
    const s = scored.stats.get(node('#c'))!;
    // Text nodes count without their surrounding whitespace: "One, two, three" + "link text" + "end."
    expect(s.text).toBe(15 + 9 + 4);
    expect(s.link).toBe('link text'.length);
    expect(s.commas).toBe(2);
    expect(s.paragraphs).toBe(1);
    expect(s.inputs).toBe(1); // the text field, not the button
    expect(scored.dropped.has(node('nav'))).toBe(true);
  });

  it('gives the container of prose paragraphs the best score, and link lists a low one', () => {
    const links = Array.from({ length: 12 }, (_, i) => `<p><a href="/s${i}">Another story headline number ${i} here</a></p>`).join('');
    const { body: b, node } = body(`<body><div id="story">${prose('Rivers rise in spring', 6)}</div><div id="more">${links}</div></body>`);
    const scored = scoreTree(b, { classRules: true });
    expect(finalScore(scored, node('#story'))).toBeGreaterThan(finalScore(scored, node('#more')) * 5);
    expect(linkDensity(scored.stats.get(node('#more')))).toBeGreaterThan(0.9);
  });

  it('weighs class names: content +25, furniture −25, a content class on one line of text counts little', () => {
    expect(classWeight(el('<div class="entry-content">x</div>', 'div'))).toBe(25);
    expect(classWeight(el('<div class="comment-list">x</div>', 'div'))).toBe(-25);
    expect(classWeight(el('<div itemprop="articleBody">x</div>', 'div'))).toBe(25);
    const { body: b, node } = body(`<body><div id="title" class="content-title"><h2>A short heading that is long enough to score</h2></div><div id="main">${prose('Body text', 4)}</div></body>`);
    const scored = scoreTree(b, { classRules: true });
    expect(finalScore(scored, node('#main'))).toBeGreaterThan(finalScore(scored, node('#title')));
  });
});

describe('select: winner and what belongs with it', () => {
  it('picks the article body over the sidebar and footer-like blocks', () => {
    const { body: b, node } = body(`<body><div class="wrap"><div id="main">${prose('The council voted', 5)}</div><div class="rail">${'<a href="/x">Most read story</a> '.repeat(10)}</div></div></body>`);
    expect(selectMain(scoreTree(b, { classRules: true }))).toEqual([node('#main')]);
  });

  it('widens to every post of a thread (same-kind records holding prose), not only the longest', () => {
    const post = (id: string, text: string) => `<div class="post bg${id}" id="p${id}"><div class="author"><a href="/u">user${id}</a></div><div class="content">${text}</div></div>`;
    const html = `<body><div id="thread">${post('1', prose('The first question', 4))}${post('2', 'Short reply, but still content to keep here.')}${post('3', 'Another reply with a few words of advice in it.')}</div></body>`;
    const { body: b, node } = body(html);
    expect(selectMain(scoreTree(b, { classRules: true }))).toEqual([node('#thread')]);
  });

  it('joins prose siblings and leaves link-heavy ones out', () => {
    const { body: b, node } = body(`<body><div id="parent"><div id="main">${prose('Main story text', 5)}</div><p id="tail">A closing paragraph of plain prose that is longer than eighty characters, so it joins.</p><p id="links"><a href="/a">Link one here</a> <a href="/b">Link two here</a> <a href="/c">Link three here</a></p></div></body>`);
    const picked = selectMain(scoreTree(b, { classRules: true }));
    expect(picked).toContain(node('#main'));
    expect(picked).toContain(node('#tail'));
    expect(picked).not.toContain(node('#links'));
  });

  it('takes a story a page builder split into modules over the one longer block beside them (an author box)', () => {
    // Each module holds a heading and a paragraph or two; the author box after them holds one
    // longer paragraph and outscores every module alone, not the story's shared container.
    const para = (topic: string, words: number) => `<p>${Array.from({ length: words }, (_, i) => (i % 9 === 8 ? `${topic},` : 'cleaning')).join(' ')} done.</p>`;
    const module = (i: number, n: number) => `<div class="row r${i}"><div class="col"><div class="module text"><div class="inner"><h3>${i}. Trend</h3>${para('trend', 45 + n)}${n > 20 ? para('care', 30) : ''}</div></div></div></div>`;
    const html = `<body><div id="post" class="builder-body"><div class="sections">${[0, 10, 30, 5, 25, 15].map((n, i) => module(i, n)).join('')}</div>
      <div class="bio-wrap"><div class="bio-tab"><div class="bio-desc"><div>${para('owner', 150)}</div></div></div></div></div>
      <div class="site-links">${'<a href="/x">Link</a> '.repeat(20)}</div></body>`;
    const { body: b, node } = body(html);
    expect(selectMain(scoreTree(b, { classRules: true }))).toEqual([node('#post')]);
  });

  it('does not widen to a link-heavy container of blocks that score near the winner (teasers with their link lists)', () => {
    const teaser = (i: number) => `<div class="teaser"><div class="card c${i}"><div class="txt">${prose('Teaser', 5)}</div><ul>${'<li><a href="/x">A link in the card to other stories</a></li>'.repeat(8)}</ul></div></div>`;
    const { body: b, node } = body(`<body><div id="page"><div id="lead"><div id="story">${prose('The council voted', 5)}</div></div><div id="more">${[1, 2, 3, 4].map(teaser).join('')}</div></div></body>`);
    expect(selectMain(scoreTree(b, { classRules: true }))).not.toContain(node('#page'));
  });

  it('takes a microdata product whole (name and price beside the description)', () => {
    const { body: b, node } = body(`<body><div id="item" itemscope itemtype="https://schema.org/Product"><h1>Trail Pack</h1><span>$89.00</span><div class="description">${prose('The pack carries', 4)}</div><table><tr><td>Weight</td><td>890 g</td></tr></table></div><div class="recs"><a href="/o">Other pack</a></div></body>`);
    expect(selectMain(scoreTree(b, { classRules: true }))).toEqual([node('#item')]);
  });

  it('signature: tag and first class, and the first child\'s', () => {
    expect(signature(el('<div class="post bg1">x</div>', 'div'))).toBe('div.post');
    expect(signature(el('<div class="post bg2"><div class="inner">x</div></div>', 'div'))).toBe('div.post>div.inner');
    expect(signature(el('<li>x</li>', 'li'))).toBe('li.');
    // What is never drawn is no first child: XenForo's later posts open with <meta>, the first does not.
    expect(signature(el('<article class="message"><meta itemprop="x"><span class="anchor"></span><div>x</div></article>', 'article'))).toBe('article.message>span.anchor');
  });

  it('widens to every post of a thread when only some posts open with <meta> (the first post the longest)', () => {
    const post = (i: number, text: string, meta: boolean) => `<article class="message message--post" id="p${i}">${meta ? '<meta itemprop="a"><meta itemprop="b">' : ''}<span class="u-anchorTarget" id="post-${i}"></span><div class="message-inner"><div class="message-user"><a href="/members/u${i}">user${i}</a></div><div class="message-main"><div class="bbWrapper">${text}</div></div></div></article>`;
    const first = post(1, `The squad list for the season, with every position and the players who can fill it.<br>${Array.from({ length: 12 }, (_, k) => `<p>Part ${k + 1}: goalkeepers, defenders, midfielders and forwards, with their ages, contracts, and the rules on home-grown players, listed in full.</p>`).join('')}`, false);
    const replies = [2, 3, 4].map((i) => post(i, `Reply ${i}: a short answer with a view on the list, and a question about the loans, enough to read as a sentence.`, true)).join('');
    const { body: b, node } = body(`<body><div id="thread" class="block-body">${first}${replies}</div></body>`);
    expect(selectMain(scoreTree(b, { classRules: true, commentsAreContent: true } as never))).toEqual([node('#thread')]);
  });
});

describe('clean: boilerplate inside the winner', () => {
  const run = (inner: string) => {
    const { body: b, node } = body(`<body><div id="main">${prose('Story text', 5)}${inner}</div></body>`);
    const scored = scoreTree(b, { classRules: true });
    return { removed: cleanSelection([node('#main')], scored), node };
  };

  it('removes a link list, a form with fields and an empty shell; keeps code, data tables and prose', () => {
    const { removed, node } = run(
      '<div id="links"><a href="/1">Read this next story</a> <a href="/2">And this one too</a></div>' +
        '<div id="form"><input type="email"><input type="text"> Sign up</div>' +
        '<div id="empty"></div>' +
        '<div id="code"><button>Copy</button><pre>npm install gleaner</pre></div>' +
        '<table id="data"><tr><th>Plan</th><th>Price</th></tr><tr><td>Team</td><td>$20</td></tr></table>' +
        '<div id="note">A plain note, with no links, kept as written.</div>',
    );
    for (const id of ['#links', '#form', '#empty']) expect(removed.has(node(id))).toBe(true);
    for (const id of ['#code', '#data', '#note']) expect(removed.has(node(id))).toBe(false);
  });

  it('keeps a data table inside its wrapper, links and all (a figure around a reference table)', () => {
    const { removed, node } = run(
      '<figure id="wrap" class="table-container"><table><tr><th scope="row">Prerequisites:</th><td><a href="/a">HTML basics</a>, <a href="/b">CSS basics</a></td></tr>' +
        '<tr><th scope="row">Objective:</th><td><a href="/c">Flexbox</a></td></tr></table><figcaption>Before you start</figcaption></figure>',
    );
    expect(removed.has(node('#wrap'))).toBe(false);
  });

  it('keeps records whole: listing items are link-dense by nature', () => {
    const tile = (i: number) => `<div class="tile"><a href="/p/${i}"><div class="name">Espresso machine model ${i}</div></a><div class="price">$${i}99.00</div></div>`;
    const { body: b, node } = body(`<body><div id="grid">${Array.from({ length: 6 }, (_, i) => tile(i)).join('')}</div></body>`);
    const scored = scoreTree(b, { classRules: true });
    const removed = cleanSelection([node('#grid')], scored);
    expect(removed.size).toBe(0);
  });
});

describe('serialize and extract', () => {
  it('writes the selection without skipped nodes, URLs absolute, only useful attributes', () => {
    const { node } = body('<body><div id="c" class="x" data-track="1"><a href="/a#f" onclick="x()">A</a><img data-src="/real.png" src="data:image/gif;base64,AA" alt="pic"><span id="skip">no</span><pre class="language-js codeBlock">x &lt; 1</pre></div></body>');
    const out = serializeContent([node('#c')], (n) => n === node('#skip'), 'https://site.test/dir/page');
    expect(out.html).toBe('<div><a href="https://site.test/a#f">A</a><img data-src="/real.png" src="https://site.test/real.png" alt="pic"><pre data-lang="js">x &lt; 1</pre></div>');
    expect(out.textLength).toBe('A'.length + 'x < 1'.length);
    // A srcset list a theme wrote into src: its first image, not one broken address.
    const { node: n2 } = body('<body><div id="c"><img src="/500w/tee.jpg?c=1 1000w, /625w/tee.jpg?c=1 1250w" alt="tee"></div></body>');
    expect(serializeContent([n2('#c')], () => false, 'https://site.test/dir/page').html).toBe('<div><img src="https://site.test/500w/tee.jpg?c=1" alt="tee"></div>');
  });

  it("writes a code block's text only: a highlighter's token spans and links as their text, a <br> as a line break", () => {
    const { node } = body('<body><div id="c"><pre class="language-js"><code><span class="k">const</span> <a href="/x">x</a> = <span class="n">1</span>;<br><span class="c">// &lt;done&gt;</span></code></pre></div></body>');
    const out = serializeContent([node('#c')], () => false, 'https://site.test/');
    expect(out.html).toBe('<div><pre data-lang="js"><code>const x = 1;\n// &lt;done&gt;</code></pre></div>');
  });

  it('writes a long run of inline children in bare <span>s of 500 (the converter parses a long child list in square time); blocks, rows and items as they are', () => {
    const links = Array.from({ length: 1200 }, (_, i) => `<a href="/p/${i}">P${i}</a>`).join(' ');
    const rows = Array.from({ length: 600 }, (_, i) => `<tr><td>${i}</td></tr>`).join('');
    const { node } = body(`<body><div id="c"><p>${links}</p><table><tbody>${rows}</tbody></table></div></body>`);
    const out = serializeContent([node('#c')], () => false, 'https://site.test/');
    const p = out.html.slice(0, out.html.indexOf('</p>'));
    expect(p.split('<span>').length - 1).toBe(5);
    expect(p.replace(/<\/?span>/g, '')).toBe(`<div><p>${links.replace(/href="\//g, 'href="https://site.test/')}`);
    expect(out.html).not.toMatch(/<tbody><span>|<\/tr><span>/);
  });

  it('falls back to the lenient pass when class rules leave too little (content classed "comments")', () => {
    const { body: b } = body(`<body><nav>menu</nav><div class="comments">${prose('Every comment is the content here', 8)}</div></body>`);
    const r = extractMainContent(b, { base: 'https://site.test/' });
    expect(r.pass).toBe('lenient');
    expect(r.html).toContain('Every comment is the content here');
    expect(r.html).not.toContain('menu');
  });

  it('keeps a short post of prose against its longer comment thread', () => {
    const post = '<p>A short open-thread post, with commas, asking readers what they think about the plan, and why.</p>'.repeat(3);
    const comments = Array.from({ length: 6 }, (_, i) => `<div class="comment"><p>Comment ${i}, with an opinion, a reason, and a long enough sentence to count as prose here.</p></div>`).join('');
    const { body: b } = body(`<body><article><div class="entry-content">${post}</div></article><div class="comments">${comments}</div></body>`);
    const r = extractMainContent(b, { base: 'https://site.test/' });
    expect(r.pass).toBe('strict');
    expect(r.html).toContain('open-thread post');
    expect(r.html).not.toContain('Comment 0');
  });

  it('gives the body without chrome when nothing scores', () => {
    const { body: b } = body('<body><nav>menu</nav><h1>Title</h1><p>Short.</p></body>');
    const r = extractMainContent(b, { base: 'https://site.test/' });
    expect(r.pass).toBe('body');
    expect(r.html).toBe('<h1>Title</h1><p>Short.</p>');
  });
});

describe("a grid's blocks before its title", () => {
  it('are every element wholly before the first <h1> with what is inside them, not the h1\'s ancestors or what follows it', () => {
    const { body: b, node } = body(`<body><div id="bar"><a id="l1" href="/a">Climb</a> <a href="/b">Ride</a></div><div id="wrap"><div id="menu"><a href="/c">Trail guide</a></div><div id="head"><h1>Houston</h1><p id="sub">149 miles</p></div><ul id="cards"><li>Creek trail</li></ul></div></body>`);
    const set = beforeTitle(b, scoreTree(b, { classRules: false }));
    for (const id of ['#bar', '#l1', '#menu']) expect(set.has(node(id))).toBe(true);
    for (const id of ['#wrap', '#head', 'h1', '#sub', '#cards']) expect(set.has(node(id))).toBe(false);
    expect(beforeTitle(body('<body><p>no title</p></body>').body, scoreTree(body('<body><p>x</p></body>').body, { classRules: false })).size).toBe(0);
  });
});
