import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import { codeSpans, htmlToMarkdown, tidyMarkdown } from '../../../functions/core/content/markdown.js';
import { parsePage } from '../../../functions/core/engine/parse.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/markdown/${name}`, import.meta.url));

/** The converter on a fixture's <body>, as the parse stage hands it a subtree. */
function convert(name: string, url: string): string {
  const $ = load(readFileSync(fixture(`${name}.html`), 'utf8'));
  const base = $('base[href]').attr('href');
  return htmlToMarkdown($.html($('body')), base ? new URL(base, url).href : url);
}

/** The lines of a markdown document that are not inside a fenced code block. */
function outsideFences(md: string): string {
  const kept: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const mark = /^(`{3,})/.exec(line)?.[1];
    if (fence) {
      if (mark && mark.length >= fence.length && line.trim() === mark) fence = null;
    } else if (mark) {
      fence = mark;
      kept.push('(code)');
    } else kept.push(line);
  }
  return kept.join('\n');
}

const PAGES: [name: string, url: string][] = [
  ['docs-code', 'https://docs.acme.test/v2/clients.html'],
  ['table-pipes', 'https://ref.example.test/shell/ops'],
  ['article-media', 'https://blog.example.test/2026/04/spring-birds'],
];

// Golden output of the HTML -> markdown converter on real-world page shapes (a Sphinx-style docs
// page with code in several languages, a reference table with pipes, an article with images,
// data: URIs and empty links). UPDATE_GOLDEN=1 rewrites the .md files after a deliberate change;
// review the diff, the goldens are the contract.
describe('markdown converter (golden output)', () => {
  for (const [name, url] of PAGES) {
    it(`converts ${name}.html exactly as recorded`, () => {
      const md = convert(name, url);
      if (process.env.UPDATE_GOLDEN) writeFileSync(fixture(`${name}.md`), `${md}\n`);
      expect(md).toBe(readFileSync(fixture(`${name}.md`), 'utf8').trimEnd());
    });
  }
});

describe('markdown that survives a round trip', () => {
  const docs = convert('docs-code', 'https://docs.acme.test/v2/clients.html');
  const table = convert('table-pipes', 'https://ref.example.test/shell/ops');
  const article = convert('article-media', 'https://blog.example.test/2026/04/spring-birds');

  it('fences code with the language the page names, however it names it', () => {
    expect(docs).toContain('```python\nimport acme\n'); // Sphinx: div.highlight-python
    expect(docs).toContain('```js\nconst client'); // pre.lang-js
    expect(docs).toContain('```go\npackage main'); // data-lang on a wrapper, whitespace around <code>
    expect(docs).toContain('```bash\ncurl'); // code.language-bash (with hljs)
    expect(docs).toContain('```\n  indented   text\n    keeps its spaces\n```'); // <pre> without <code>, nohighlight
    // Blank lines inside code are code: kept.
    expect(docs).toContain('client = acme.Client(token="…")\n\n\nprint(');
    // A fence longer than the backtick runs inside.
    expect(docs).toContain('````markdown\n```js\nnested()\n```\n````');
    expect(docs).toContain('`` a`b ``');
  });

  it('drops heading permalinks and makes links absolute against <base>', () => {
    expect(docs).toMatch(/^# Client libraries$/m);
    expect(docs).toMatch(/^## Python$/m);
    expect(docs).not.toContain('¶');
    expect(docs).toContain('[API reference](https://docs.acme.test/reference/api.html#get)');
  });

  it("drops a heading's permalink in a scraped page's markdown too (the page's links arrive made absolute), and keeps a link to another page's section", () => {
    const html = `<!doctype html><html><head><title>Advanced usage</title></head><body><main><h1>Advanced usage<a class="headerlink" href="#advanced-usage" title="Link to this heading">¶</a></h1>
      <p>Requests supports chunked transfer encoding for outgoing and incoming requests, with a generator or any iterator that has no length.</p>
      <h2>Chunk-encoded requests<a class="headerlink" href="#chunk-encoded-requests" title="Link to this heading">¶</a></h2>
      <p>To send a chunk-encoded request, provide a generator for your body; see <a href="/en/latest/api/#session">§</a> and the <a href="#top">#</a> of the page.</p></main></body></html>`;
    const md = parsePage(load(html), 'https://requests.example/en/latest/user/advanced/', { text: false, links: false, metadata: false }).markdown;
    expect(md).toMatch(/^# Advanced usage$/m);
    expect(md).toMatch(/^## Chunk-encoded requests$/m);
    expect(md).not.toContain('¶');
    expect(md).toContain('[§](https://requests.example/en/latest/api/#session)');
  });

  it('builds GFM tables with escaped pipes, a header row and one line per row', () => {
    const rows = table.split('\n').filter((l) => l.startsWith('|'));
    // Every row of the first table has exactly 3 cells: unescaped pipes are the cell borders.
    const first = rows.slice(0, 6);
    for (const r of first) expect(r.replace(/\\\|/g, '').split('|').length - 2).toBe(3);
    expect(first[1]).toMatch(/^\| -+ \| -+ \| -+ \|$/);
    expect(table).toContain('`ls \\| wc -l`');
    expect(table).toContain('the output of one command<br>feeds the next');
    expect(table).toContain('succeeds. Short-circuits.');
    expect(table).toContain('[and-list](https://ref.example.test/docs/and?x=a\\|b)');
    expect(table).toContain('**Operators by precedence**\n\n| Operator');
  });

  it('keeps images with alt text, never inlines data: URIs, drops empty links', () => {
    expect(article).toContain('![A yellow warbler on a branch](https://blog.example.test/media/warbler.jpg "Yellow warbler")');
    expect(article).not.toContain('data:');
    expect(article).toMatch(/^Map of the route$/m); // a data: image becomes its alt text
    expect(article).toContain('[![Thumbnail](https://blog.example.test/media/lazy-thumb.jpg)](https://birds.example.org/warbler)');
    expect(article).toContain('[![](https://blog.example.test/media/gallery.png)](https://blog.example.test/gallery)');
    expect(article).not.toMatch(/(?<!!)\[\s*\]\(/); // no [](…) (an image's empty alt is fine)
    expect(article).toContain('We saw **31 species** this week.\n');
    expect(article).not.toContain('javascript:');
    expect(article).toContain('<jo@example.org>');
  });

  it('nests lists so CommonMark nests them too, and honours <ol start>', () => {
    // Indented to the parent item's content: 2 spaces under `- `, 3 under `3. `.
    expect(article).toContain('- Warblers\n  - Yellow warbler\n  - Black-and-white warbler\n    1. first seen Monday\n    2. seen again Friday\n- Thrushes\n\n3. Step three\n   - detail\n4. Step four');
  });

  it('never leaves a run of blank lines or trailing blanks', () => {
    for (const md of [docs, table, article]) {
      const outsideCode = outsideFences(md);
      expect(outsideCode).not.toMatch(/\n[ \t]*\n[ \t]*\n/);
      expect(outsideCode).not.toMatch(/^[ \t]+$/m);
    }
  });
});

describe('tidyMarkdown', () => {
  it('collapses blank runs outside code and keeps them inside', () => {
    expect(tidyMarkdown('a\n\n\n  \nb\n```\nx\n\n\ny\n```\n\n\n')).toBe('a\n\nb\n```\nx\n\n\ny\n```');
  });
  it('keeps a hard break inside a paragraph, drops one before a blank line', () => {
    expect(tidyMarkdown('one  \ntwo  \n\nthree')).toBe('one  \ntwo\n\nthree');
  });
});

describe('htmlToMarkdown on small shapes', () => {
  const md = (html: string) => htmlToMarkdown(html, 'https://e.test/a/b');
  it('resolves relative links and images', () => {
    expect(md('<p><a href="../c?q=1#x">c</a> <img src="i.png" alt="i"></p>')).toBe('[c](https://e.test/c?q=1#x) ![i](https://e.test/a/i.png)');
  });
  it('emphasis keeps the underscores of its words and code; a disclosure is blocks', () => {
    expect(md('<p>The <em class="replaceable"><code>with_query</code></em> must be a <i>file_name</i> or <em>an <em>inner</em> one</em>.</p>')).toBe('The _`with_query`_ must be a _file_name_ or _an inner one_.');
    expect(md('<details><summary>ACCT 54103: Financial Accounting</summary>Integrated course on reporting.</details>')).toBe('ACCT 54103: Financial Accounting\n\nIntegrated course on reporting.');
  });
  it('escapes line-start markup only where a line starts, never in inline code', () => {
    // A text node opening with "-" or "1. " after a bold phrase or a link is mid-line: no escape.
    expect(md('<p>E-<b>E</b>-A-T matters</p><p><b>Key Takeaway</b> - the niche</p><p><a href="/c">Cherry</a>1. Apple</p>')).toBe('E-**E**-A-T matters\n\n**Key Takeaway** - the niche\n\n[Cherry](https://e.test/c)1. Apple');
    // A heading holds no list; a paragraph or a list item that opens with one keeps its escape.
    expect(md('<h2>1. Introduction</h2><p>1. Not a list here</p><ul><li>- a dash</li></ul><p>- Jane, a reviewer</p>')).toBe('## 1. Introduction\n\n1\\. Not a list here\n\n- \\- a dash\n\n\\- Jane, a reviewer');
    expect(md('<p>Run <code>a \\- b</code> - done</p>')).toBe('Run `a \\- b` - done');
    // `1)` opens an ordered list too (CommonMark): escaped at a paragraph's start, not in a heading or mid-line.
    expect(md('<p>1) First, open the lid.</p><p>See step <b>2</b>) below, and 3) too.</p><h2>1) Intro</h2>')).toBe('1\\) First, open the lid.\n\nSee step **2**) below, and 3) too.\n\n## 1) Intro');
  });
  it('writes inline code as its text: markup inside a code span would show as asterisks and brackets', () => {
    // A reference page's syntax line (bold keyword, italic placeholders in nested code): emphasis
    // markers inside a span are literal, and `_condition_` is not the word "condition".
    expect(md('<p><code><strong>break</strong>;</code> and <code><strong>if</strong> (<code><i>condition</i></code>) { ... }</code></p>')).toBe('`break;` and `if (condition) { ... }`');
    // A code span that is one link: the link around the span. A link inside a span: its text.
    expect(md('<p>Flag <code><a href="/flags/ipc">+ipc</a></code>; <code>impl <a href="/From">From</a>&lt;T&gt; for U</code></p>')).toBe('Flag [`+ipc`](https://e.test/flags/ipc); `impl From<T> for U`');
    // Inside a link, the span alone; a line break in code is a space; backticks inside stay a span.
    expect(md('<p><a href="/r"><code><b>Result</b>&lt;T&gt;</code></a> <code>a<br>b</code> <code>x`y</code></p>')).toBe('[`Result<T>`](https://e.test/r) `a b` `` x`y ``');
  });
  it('escapes a text `<` that could open a tag or an autolink (a renderer would show nothing of `<commit>`), not a comparison', () => {
    expect(md('<p>The <i>&lt;mode&gt;</i> of &lt;reviewer&gt;, a &lt; b, x &lt;= 3, &lt;3, &lt;/div&gt; and &lt;!-- x --&gt;</p><h3>impl&lt;T, E&gt; Result&lt;T, E&gt;</h3><pre><code>&lt;div&gt;</code></pre>')).toBe(
      'The _\\<mode>_ of \\<reviewer>, a < b, x <= 3, <3, \\</div> and \\<!-- x -->\n\n### impl\\<T, E> Result\\<T, E>\n\n```\n<div>\n```',
    );
  });
  it("writes a definition list's term as a bold line of its own, its definition the blocks after it", () => {
    expect(md('<dl><dt>Author:</dt><dd>Vinay Sajip</dd><dt>Release:</dt><dd><p>3.12</p></dd></dl>')).toBe('**Author:**\n\nVinay Sajip\n\n**Release:**\n\n3.12');
    // Sphinx's signature term; a term with bold and code inside; a term that is a heading stays one.
    expect(md('<dl><dt id="json.dump">json.dump(<em>obj</em>, <em>fp</em>)</dt><dd><p>Serialize <em>obj</em>.</p></dd></dl>')).toBe('**json.dump(_obj_, _fp_)**\n\nSerialize _obj_.');
    expect(md('<dl><dt><strong>Bold</strong> term with <code>a**b</code></dt><dd>Def</dd><dt><h3>Heading term</h3></dt><dd>x</dd></dl>')).toBe('**Bold term with `a**b`**\n\nDef\n\n### Heading term\n\nx');
  });
  it("writes a link's or an image's title only when it says more than the text and the address", () => {
    expect(md('<p><a href="/ssh" title="SSH">SSH</a> <a href="/p" title="print"><code>print()</code></a> <a href="/x" title="More about x">x</a> <img src="/a.png" alt="A cat" title="A cat"> <img src="/b.png" alt="b" title="Photo: Ann"> <a href="https://e.test/u" title="https://e.test/u">link</a></p>')).toBe(
      '[SSH](https://e.test/ssh) [`print()`](https://e.test/p) [x](https://e.test/x "More about x") ![A cat](https://e.test/a.png) ![b](https://e.test/b.png "Photo: Ann") [link](https://e.test/u)',
    );
  });
  it('writes a heading set in bold without the bold (a heading is bold already); bold inside a heading stays', () => {
    expect(md('<h2><strong>From breach to resilience</strong></h2><h3><a href="/x"><b>Card title</b></a></h3><h4><b>a</b> and <b>b</b></h4><h4>Plain <b>bold</b></h4>')).toBe(
      '## From breach to resilience\n\n### [Card title](https://e.test/x)\n\n#### **a** and **b**\n\n#### Plain **bold**',
    );
  });
  it('quotes every line of a block quote, a code block keeping its indentation and a nested quote its own marker', () => {
    expect(md('<blockquote><p>Example:</p><pre><code>if ($slow) {\n    limit_rate 10k;\n}</code></pre><blockquote><p>inner</p></blockquote><ul><li>one<ul><li>two</li></ul></li></ul></blockquote>')).toBe(
      '> Example:\n>\n> ```\n> if ($slow) {\n>     limit_rate 10k;\n> }\n> ```\n>\n>> inner\n>\n> - one\n>   - two',
    );
    expect(md('<blockquote>   </blockquote><p>after</p>')).toBe('after');
  });
  it('writes nested bold, emphasis and strikethrough once: no `****` or `__` a renderer shows as text', () => {
    // The same markup nested (a CMS's <b><strong>, a heading's <strong> inside <b>): one pair of
    // delimiters, the inner one opening the content included.
    expect(md('<p><b><strong>Toner</strong></b> then <strong><strong>How to adapt</strong>:</strong></p>')).toBe('**Toner** then **How to adapt:**');
    expect(md('<p><em><em>University of Tasmania</em></em>, <s><del>old</del></s>, <b>a <code>x**y</code></b></p>')).toBe('_University of Tasmania_, ~~old~~, **a `x**y`**');
    // A link inside emphasis keeps the underscores of its address.
    expect(md('<p><em>See <a href="https://x.test/r01/_https://p.test/_.Y">this</a></em></p>')).toBe('_See [this](https://x.test/r01/_https://p.test/_.Y)_');
  });
  it('keeps the space a link text opens or closes with, outside the brackets', () => {
    // "uses<a> natural materials like </a>organic": a reader sees four words, not "usesnatural".
    expect(md('<p>Brand uses<a href="/m"> natural materials like </a>organic cotton.</p>')).toBe('Brand uses [natural materials like](https://e.test/m) organic cotton.');
    expect(md('<p>(<a href="/g">link</a>), <a href="/h">next</a>.</p>')).toBe('([link](https://e.test/g)), [next](https://e.test/h).');
    expect(md('<p>Mail<a href="mailto:a@e.test"> a@e.test</a>!</p>')).toBe('Mail <a@e.test>!');
  });
  it('writes an emoji drawn as an image as the emoji (its alt text), any other picture as an image', () => {
    expect(md('<p>Yay for bugs! <img src="/e/1f41b.png" alt="🐛" title=":bug:"> <img src="/f.png" alt="👍🏽"> <img src="/flag.png" alt="🇫🇷"> <img src="/x.png" alt="A cat 🐱"></p>')).toBe(
      'Yay for bugs! 🐛 👍🏽 🇫🇷 ![A cat 🐱](https://e.test/x.png)',
    );
  });
  it("drops a lazy-loading placeholder's alt text: the image it stands for is no text", () => {
    // A card's picture whose src is an empty SVG of its size (the script swaps in the photo):
    // its alt text read as a line of text ran before every card's title.
    const svg = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'%20viewBox='0%200%20400%20650'%3E%3C/svg%3E";
    expect(md(`<p><a href="/tacos"><img src="${svg}" alt="Two fish tacos on a white plate."></a></p><h2>Fish tacos</h2>`)).toBe('## Fish tacos');
    expect(md('<p>Shop<img src="data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7" alt="Blank pixel"></p>')).toBe('Shop');
    // A drawing inlined as a data: URI stays its alt text.
    const drawn = `data:image/svg+xml,${encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0L9 9"/></svg>')}`;
    expect(md(`<p><img src="${drawn}" alt="Map of the route"></p>`)).toBe('Map of the route');
  });
  it("takes the first image of a srcset list a theme wrote into src; a data: URI's commas are no list", () => {
    const list = 'https://cdn.test/500w/tee.jpg?c=1 1000w, https://cdn.test/625w/tee.jpg?c=1 1250w, https://cdn.test/750w/tee.jpg?c=1 1500w';
    expect(md(`<p><img src="${list}" alt="Staple tee"></p>`)).toBe('![Staple tee](https://cdn.test/500w/tee.jpg?c=1)');
    expect(md('<p><img src="/a.jpg 1x, /a@2x.jpg 2x" alt="A"></p>')).toBe('![A](https://e.test/a.jpg)');
    expect(md('<p><img src="/plain photo.jpg" alt="B"></p>')).toBe('![B](https://e.test/plain%20photo.jpg)');
  });
  it('drops an image-less empty link and an alt-less data: image', () => {
    expect(md('<p>x<a href="/y"> </a><img src="data:image/png;base64,AA" alt="">y</p>')).toBe('x y'); // the link's space is shown
  });
  it('keeps only the text of links a reader cannot follow, drops empty headings, keeps headings on one line', () => {
    expect(md('<p><a href="whatsapp://send?text=x">Share</a> <a href="javascript:void(0)">More</a> <a href="data:text/html,hi">Data</a></p>')).toBe('Share More Data');
    expect(md('<h2><i class="icon"></i></h2><h3>Two<br>lines</h3><p>x</p>')).toBe('### Two lines\n\nx');
  });

  it('renders a link whose text is its URL as an autolink', () => {
    expect(md('<p><a href="https://e.test/z">https://e.test/z</a></p>')).toBe('<https://e.test/z>');
  });
});

describe('inline code spans (what the escapes and emphasis passes leave as written)', () => {
  const spans = (s: string) => codeSpans(s).map(([a, b]) => s.slice(a, b));
  it('a run of backticks up to the next run of the same length; shorter or longer runs inside are code', () => {
    expect(spans('a `b_c` d ``e`f`` g')).toEqual(['`b_c`', '``e`f``']);
    expect(spans('`a``b`')).toEqual(['`a``b`']);
  });
  it('a run without a partner of its length is text, and the runs after it still pair', () => {
    expect(spans('```a``b')).toEqual([]);
    expect(spans('``` x `y` z')).toEqual(['`y`']);
    // Many shorter runs after an opening that never closes: the opening stays text, the runs after
    // it pair among themselves.
    const runs = spans('``` ' + '``a'.repeat(200));
    expect(runs).toHaveLength(100);
    expect(runs.every((r) => r === '``a``')).toBe(true);
  });
});
