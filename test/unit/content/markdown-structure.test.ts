import { load } from 'cheerio';
import { describe, expect, it } from 'vitest';
import type { DomNode } from '../../../functions/core/content/dom.js';
import { htmlToMarkdown } from '../../../functions/core/content/markdown.js';
import { serializeContent } from '../../../functions/core/content/serialize.js';

// Markdown a model can read (issue 38): the structure of the page survives the conversion.
const md = (html: string) => htmlToMarkdown(html, 'https://e.test/docs/page');

/** The service path: the selected node written back to HTML (serialize.ts), then converted. */
function viaSelection(html: string, selector: string): string {
  const $ = load(html);
  const { html: out } = serializeContent([$(selector).get(0) as unknown as DomNode], () => false, 'https://e.test/docs/page');
  return md(out);
}

describe('GFM tables', () => {
  it('has a header row, a --- delimiter under it and escaped pipes; cells are one line', () => {
    const t = md('<table><tr><th>Op</th><th>Meaning</th></tr><tr><td><code>a|b</code></td><td>pipe | or<br>not</td></tr><tr><td>x</td><td><p>one</p><p>two</p></td></tr></table>');
    expect(t).toBe('| Op | Meaning |\n| --- | --- |\n| `a\\|b` | pipe \\| or<br>not |\n| x | one two |');
  });

  it('pads no cell to the widest one, keeps a delimiter of three dashes for a one-letter column', () => {
    const long = 'word '.repeat(60).trim();
    const t = md(`<table><tr><td>k</td><td>v</td></tr><tr><td>a</td><td>${long}</td></tr></table>`);
    expect(t.split('\n')).toEqual(['| k | v |', '| --- | --- |', `| a | ${long} |`]);
  });

  it('keeps columns in line past a colspan and gives every row as many cells', () => {
    expect(md('<table><tr><th colspan="2">Both</th><th>C</th></tr><tr><td>a</td></tr></table>')).toBe('| Both | | C |\n| --- | --- | --- |\n| a | | |');
  });

  it('keeps the cells of a table nested in a cell apart', () => {
    expect(md('<table><tr><td>outer</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr></table>')).toBe('| outer | in1 in2 |\n| --- | --- |');
  });
});

describe('code blocks with their language', () => {
  it.each([
    ['<pre><code class="language-python">x = 1</code></pre>', 'python'],
    ['<pre class="brush: css notranslate"><code>a { b: c }</code></pre>', 'css'],
    ['<pre class="brush: php; title: ; notranslate">echo 1;</pre>', 'php'],
    ['<pre><code class="hljs javascript">let a</code></pre>', 'javascript'],
    ['<div class="sourceCode"><pre class="sourceCode python"><code class="sourceCode python">x=1</code></pre></div>', 'python'],
    ['<div class="highlight highlight-text-html-basic"><pre>&lt;p&gt;</pre></div>', 'html'],
    ['<div class="highlight-source-rust"><pre>fn main() {}</pre></div>', 'rust'],
    ['<pre class="rust rust-example-rendered"><code>fn f() {}</code></pre>', 'rust'],
    ['<pre class="gatsby-code-jsx"><code class="gatsby-code-jsx">&lt;A /&gt;</code></pre>', 'jsx'],
    ['<pre class="EnlighterJSRAW" data-enlighter-language="python">x</pre>', 'python'],
    ['<div data-lang="go"><pre><code>package main</code></pre></div>', 'go'],
  ])('%s -> %s', (html, lang) => {
    expect(md(html)).toMatch(new RegExp(`^\`\`\`${lang.replace(/\+/g, '\\+')}\\n`));
  });

  it('takes no layout class for a language', () => {
    expect(md('<div class="highlight-box"><pre class="col-md text-sm">x</pre></div>')).toBe('```\nx\n```');
    // A block the page names plain text is plain, whatever its wrapper says.
    expect(md('<div class="language-js"><pre><code class="nohighlight">x</code></pre></div>')).toBe('```\nx\n```');
  });

  it('keeps the language of a wrapper left outside the selection', () => {
    expect(viaSelection('<div class="language-toml highlighter-rouge"><div class="highlight"><pre class="highlight"><code>[a]\nb = 1</code></pre></div></div>', 'pre')).toBe('```toml\n[a]\nb = 1\n```');
  });
});

describe('lists', () => {
  it('indents nested lists to the parent item content (2 under "-", 3 under "1.")', () => {
    expect(md('<ul><li>a<ul><li>b<ol><li>c</li><li>d</li></ol></li></ul></li><li>e</li></ul>')).toBe('- a\n  - b\n    1. c\n    2. d\n- e');
    expect(md('<ol start="9"><li>nine<ul><li>sub</li></ul></li><li>ten</li></ol>')).toBe('9. nine\n   - sub\n10. ten');
  });

  it('keeps an item\'s paragraphs, code and tables in the item', () => {
    const out = md('<ol><li><p>Install:</p><pre><code class="language-bash">npm i x\n\nnpm run y</code></pre></li><li><p>Then</p><p>more</p><table><tr><th>A</th></tr><tr><td>1</td></tr></table></li></ol>');
    expect(out).toBe('1. Install:\n\n   ```bash\n   npm i x\n\n   npm run y\n   ```\n2. Then\n\n   more\n\n   | A |\n   | --- |\n   | 1 |');
  });

  it('keeps the blank lines of a code block that opens an item', () => {
    expect(md('<ul><li><pre>x\n\n\ny</pre></li></ul>')).toBe('- ```\n  x\n\n\n  y\n  ```');
  });

  it('nests a list written straight into a list', () => {
    expect(md('<ul><li>a</li><ul><li>b</li></ul><li>c</li></ul>')).toBe('- a\n  - b\n- c');
  });
});

describe('headings', () => {
  it('keeps every level, also inside list items and block quotes', () => {
    expect(md('<h1>One</h1><h3>Three</h3><h6>Six</h6>')).toBe('# One\n\n### Three\n\n###### Six');
    expect(md('<ul><li><h4>Title</h4><p>text</p></li></ul>')).toBe('- #### Title\n\n  text');
  });

  it('keeps a heading inside a link (a card) a heading, its text the link', () => {
    expect(md('<a href="/p"><h3>Card title</h3><p>blurb</p></a>')).toBe('### [Card title](https://e.test/p)\n\nblurb');
    // Blocks inside an ordinary link are apart, not glued into one word.
    expect(md('<a href="/x"><div>one</div><div>two</div></a>')).toBe('[one two](https://e.test/x)');
  });
});

describe('escapes', () => {
  it('escapes what would start a list, heading or quote at the start of a line only: a year that ends a sentence stays as written', () => {
    expect(md('<p>The watch was unveiled in 1931. The rest followed.</p>')).toBe('The watch was unveiled in 1931. The rest followed.');
    expect(md('<p>In <b>July</b> 2018. That was when it began.</p>')).toContain('2018');
    // A paragraph that would read as an ordered list, a heading or a quote keeps reading as text.
    expect(md('<p>1931. The year it began.</p>')).toBe('1931\\. The year it began.');
    expect(md('<p># not a heading</p>')).toBe('\\# not a heading');
    expect(md('<p>&gt; not a quote</p>')).toBe('\\> not a quote');
    expect(md('<p>Text<br>2. Not an item</p>')).toBe('Text  \n2\\. Not an item');
  });
});
