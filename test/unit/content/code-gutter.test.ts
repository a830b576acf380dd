import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

// A code block's line numbers are beside the code, never part of it (code-gutter.ts): a reader
// copying the code does not get them, and neither should an agent reading the markdown.
const prose = '<p>A long enough paragraph about installing the library and its tools, with commas, details and a few more words to count as prose.</p>';
const md = (body: string) => parsePage(load(`<body><article>${prose}${body}</article></body>`), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown.split('\n\n').slice(1).join('\n\n');

describe('line-number gutters of code blocks', () => {
  it('numbers written as the first of each line\'s two parts (CSS-in-JS, no class to go by), lines as blocks', () => {
    const line = (i: number, code: string) => `<div class="css-roynbj"><style>.css-519pyc{user-select:none}</style><span class="css-519pyc">${i}</span><div class="css-luzz01"><div>${code}</div></div></div>`;
    expect(md(`<pre data-lang="shell"><div>${line(1, '<span>composer</span> <span>require twilio/sdk</span>')}${line(2, '<span>composer</span> <span>install</span>')}</div></pre>`))
      .toBe('```shell\ncomposer require twilio/sdk\ncomposer install\n```');
  });

  it('an element named as the gutter', () => {
    expect(md('<pre><code class="language-js"><span class="line-number">1</span>const a = 1;\n<span class="line-number">2</span>const b = 2;</code></pre>'))
      .toBe('```js\nconst a = 1;\nconst b = 2;\n```');
    expect(md('<pre><code class="language-py"><span class="linenos">1</span>x = 1\n<span class="linenos">2</span>y = 2</code></pre>')).toBe('```py\nx = 1\ny = 2\n```');
  });

  it('a gutter cell beside a code cell (Pygments, Rouge, Chroma tables): the code block alone', () => {
    expect(md('<table class="highlighttable"><tr><td class="linenos"><div class="linenodiv"><pre>1\n2\n3</pre></div></td><td class="code"><div class="highlight"><pre><span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>\ny = 2\nz = 3</pre></div></td></tr></table>'))
      .toBe('```\nx = 1\ny = 2\nz = 3\n```');
    // Hugo's Chroma table around a one-line command: one number beside one line.
    expect(md('<div class="highlight"><div class="chroma"><table class="lntable"><tr><td class="lntd"><pre class="chroma"><code><span class="lnt" id="hl-23-1"><a class="lnlinks" href="#hl-23-1">1</a>\n</span></code></pre></td><td class="lntd"><pre class="chroma"><code class="language-bash" data-lang="bash"><span class="line"><span class="cl">pip install stringzilla\n</span></span></code></pre></td></tr></table></div></div>'))
      .toBe('```bash\npip install stringzilla\n```');
  });

  it('numbers that are the code stay: a line of tokens, a block of numbers, a table of two blocks', () => {
    expect(md('<pre><span class="line"><span class="mi">1</span><span class="p">,</span><span>foo</span></span>\n<span class="line"><span class="mi">2</span><span class="p">,</span><span>bar</span></span></pre>')).toBe('```\n1,foo\n2,bar\n```');
    expect(md('<pre><code>1\n2\n</code></pre>')).toBe('```\n1\n2\n```');
    // Two code blocks side by side whose first is not a column of counting numbers: a table still.
    expect(md('<table><tr><td><pre>a = 1</pre></td><td><pre>b = 2</pre></td></tr></table>')).toContain('|');
    // A one-number block beside a block of two lines: a table still.
    expect(md('<table><tr><td><pre>7</pre></td><td><pre>b = 2\nc = 3</pre></td></tr></table>')).toContain('|');
  });
});
