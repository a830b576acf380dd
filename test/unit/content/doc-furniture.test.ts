import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { docFurnitureKind } from '../../../functions/core/content/doc-furniture.js';

const md = (html: string, url = 'https://tools.example/docs/guide/start') => parsePage(load(html), url, { text: false, links: false, metadata: false }).markdown;

const prose = (topic: string) =>
  `<p>The ${topic} step reads the configuration file, checks every key against the schema, and reports each problem with its line number, so that a mistake is found before anything runs.</p>`;

describe('documentation pages: the content frame', () => {
  it('keeps a word break where a line break follows an inline element (a link, code, bold)', () => {
    const out = md(`<html><body><main><h1>Setup</h1>${prose('first')}<p><a href="/a">The loader</a>
reads files, <code>strict</code>
mode stops at the first error, and <b>warnings</b>
are printed after the run has finished for good.</p></main></body></html>`);
    expect(out).toContain('[The loader](https://tools.example/a) reads files, `strict` mode stops');
    expect(out).toContain('**warnings** are printed');
  });

  it('reads a <main> inside a layout wrapper named for its sidebars', () => {
    // A site notice above the layout is the only other prose of the page.
    const notice = `<div class="notice"><p>${'This site moves to a new address next month, and bookmarks to the old pages keep working for a year after that. '.repeat(5)}</p></div>`;
    const out = md(`<html><body>${notice}<div class="layout-with-sidebars"><nav class="toc"><a href="/a">A</a></nav>
      <main><h1>Install</h1>${prose('install')}${prose('verify')}<h2>Upgrade</h2>${prose('upgrade')}${prose('rollback')}${prose('cleanup')}</main></div>
      <footer>Copyright</footer></body></html>`);
    expect(out).toContain('# Install');
    expect(out).toContain('The upgrade step reads');
  });

  it("keeps the article's own header block (title and lead) named `…__header` inside <main>", () => {
    const out = md(`<html><body><div class="site-header"><a href="/">Home</a> <a href="/docs">Docs</a></div>
      <main><div class="page__header"><h1>The Socket interface</h1><p>A Socket object opens a connection to a server and sends and receives data on it, one message at a time.</p></div>
      <div class="page__body">${prose('connect')}${prose('send')}</div></main></body></html>`);
    expect(out).toContain('# The Socket interface');
    expect(out).toContain('A Socket object opens a connection');
    expect(out).not.toContain('Home');
  });

  it('keeps headings classed as headers (`header-anchor`) inside the article, not a post header of author and date', () => {
    const out = md(`<html><body><article><h1>Edge first</h1>${prose('sync')}
      <div class="post-header"><span>Ann Lee</span> <span>3,210 posts · Joined 2019</span></div>
      <h2 class="header-anchor">The cloud is not the computer</h2>${prose('cache')}${prose('merge')}</article></body></html>`, 'https://essays.example/p/edge-first');
    expect(out).toContain('## The cloud is not the computer');
    expect(out).not.toContain('Joined 2019');
  });

  it("takes the page's <main> when the best block is one section of a reference page", () => {
    const entries = (names: string[]) => `<dl>${names.map((n) => `<dt><a href="/ref/${n}"><code>Socket.${n}</code></a></dt><dd>Returns the ${n} of the connection, as the server reported it in the last handshake.</dd>`).join('')}</dl>`;
    const out = md(`<html><body><main><div class="top"><h1>Socket</h1><section>${prose('open')}${prose('handshake')}</section></div>
      <div class="members"><section><h2>Instance properties</h2>${entries(['state', 'protocol', 'url', 'buffered', 'extensions', 'binaryType'])}</section>
      <section><h2>Instance methods</h2>${entries(['close', 'send', 'ping', 'reset', 'pause', 'resume'])}</section></div></main></body></html>`, 'https://tools.example/docs/api/socket');
    expect(out).toContain('The open step reads');
    expect(out).toContain('## Instance methods');
    expect(out).toContain('Returns the buffered of the connection');
  });

  it('keeps a section whose id is the slug of its heading, whatever words the heading has', () => {
    const out = md(`<html><body><main><h1>Submitting patches</h1>${prose('describe')}${prose('split')}${prose('test')}
      <section id="respond-to-review-comments"><h2>Respond to review comments</h2>${prose('reply')}</section>
      <section id="comments"><h2>Comments</h2><p>Nice page!</p></section></main></body></html>`);
    expect(out).toContain('## Respond to review comments');
    expect(out).toContain('The reply step reads');
    expect(out).not.toContain('Nice page');
  });

  it('keeps the hidden tabs of a code example (the same call in other languages)', () => {
    const tab = (lang: string, code: string, hidden: boolean) =>
      `<div role="tabpanel" class="tab-panel"${hidden ? ' hidden' : ''}><pre><code class="language-${lang}">${code}</code></pre></div>`;
    const out = md(`<html><body><main><h1>Send a message</h1>${prose('send')}
      <div class="tabs"><div role="tablist"><button>Python</button><button>Ruby</button></div>
      ${tab('python', 'client.messages.create(to=number)', false)}${tab('ruby', 'client.messages.create(to: number)', true)}</div>
      ${prose('receive')}</main></body></html>`);
    expect(out).toContain('```python\nclient.messages.create(to=number)');
    expect(out).toContain('```ruby\nclient.messages.create(to: number)');
  });
});

describe('documentation pages: furniture inside the content', () => {
  // Furniture in plain <div>s and <p>s (no nav, aside or furniture class to tell it by).
  const page = `<html><body><main><div class="doc">
    <h1>Configure the loader</h1>
    <div class="toc-box"><p>On this page</p><ul><li><a href="#files">Files</a></li><li><a href="#keys">Keys</a></li><li><a href="#errors">Errors</a></li></ul></div>
    ${prose('parse')}
    <h2 id="files">Files</h2>${prose('file')}
    <h2 id="keys">Keys</h2>${prose('key')}
    <p>Every key is a <a href="/ref/keys">documented key</a>; <a href="/ref/unknown">unknown keys</a> are errors.</p>
    <div class="row"><a href="https://git.example/docs/edit/loader.md">Edit this page</a></div>
    <div class="row"><p>Was this page helpful?</p><span>Yes</span> <span>No</span></div>
    <div class="row"><a href="/docs/install">Previous Installation</a> <a href="/docs/run">Next Running the loader</a></div>
  </div></main></body></html>`;

  it('leaves out the table of contents, "Edit this page", the feedback question and previous/next links', () => {
    const out = md(page);
    expect(out).toContain('# Configure the loader');
    expect(out).toContain('The key step reads');
    expect(out).toContain('[documented key](https://tools.example/ref/keys)');
    expect(out).not.toMatch(/On this page|\[Files\]|Edit this page|helpful|Previous Installation|Next Running/);
  });
});

describe('documentation pages: code blocks verbatim', () => {
  it("keeps a highlighted code block's comments (hljs-comment, Prism's token comment): class names inside code are tokens, not furniture", () => {
    const out = md(`<html><body><main><h1>Staging files</h1>${prose('stage')}${prose('commit')}
      <pre><code class="hljs language-bash"><span class="hljs-comment"># this will stage only the files that you name</span>
git add README.md
<span class="hljs-comment"># this will commit what you staged</span>
git commit -m "Docs"</code></pre>
      <pre class="language-js"><code><span class="token comment">// runs after every render</span>
useEffect(() =&gt; { document.title = title; });</code></pre>
      <div class="comments"><p>Reader comment: great guide, thanks for writing it all down so clearly and with examples.</p></div></main></body></html>`);
    expect(out).toContain('# this will stage only the files that you name\ngit add README.md\n# this will commit what you staged');
    expect(out).toContain('// runs after every render\nuseEffect');
    expect(out).not.toContain('Reader comment');
  });
});

describe("documentation pages: a chapter's page that is its table of contents", () => {
  it('keeps a table of contents (a <dl> of section links) that is a good part of the page, and leaves out one beside a long page', () => {
    const sections = ['Introduction', 'Index Types', 'B-Tree', 'Hash', 'Multicolumn Indexes', 'Indexes and ORDER BY', 'Combining Multiple Indexes', 'Unique Indexes', 'Partial Indexes', 'Examining Index Usage'];
    const toc = `<div class="toc"><p><b>Table of Contents</b></p><dl class="toc">${sections.map((t, i) => `<dt><span class="sect1"><a href="indexes-${i}.html">11.${i + 1}. ${t}</a></span></dt>`).join('')}</dl></div>`;
    const chapter = (body: string) => `<html><body><div class="navheader"><a href="/docs/">Up</a> <a href="/docs/10.html">Prev</a></div>
      <div id="docContent"><div class="chapter"><h2>Chapter 11. Indexes</h2>${toc}<p>Indexes are a common way to enhance database performance: an index lets the server find rows much faster.</p>${body}</div></div></body></html>`;
    const index = md(chapter(''), 'https://db.example/docs/current/indexes.html');
    expect(index).toContain('Table of Contents');
    expect(index).toContain('[11.5. Multicolumn Indexes](https://db.example/docs/current/indexes-4.html)');
    expect(index).toContain('Indexes are a common way');
    const long = md(chapter([1, 2, 3, 4, 5, 6, 7, 8].map((i) => prose(`index-${i}`)).join('')), 'https://db.example/docs/current/indexes.html');
    expect(long).toContain('The index-8 step reads');
    expect(long).not.toMatch(/Table of Contents|Multicolumn/);
  });
});

describe('documentation pages: lists of links a sentence introduces', () => {
  it('keeps the links after "For more information, see:" (they are the sentence\'s end)', () => {
    const type = (name: string) => `<h2>${name}</h2><p>${name} values are the most basic kind of value the store holds. For more information, see:</p>
      <ul><li><a href="/docs/${name}/overview">Overview of ${name} values</a></li><li><a href="/docs/${name}/commands">${name} command reference</a></li></ul>`;
    const out = md(`<html><body><main><h1>Data types</h1>${prose('store')}${type('String')}${type('List')}${type('Hash')}${prose('compare')}</main></body></html>`);
    expect(out).toContain('[Overview of List values](https://tools.example/docs/List/overview)');
    expect(out).toContain('[Hash command reference]');
  });
});

describe('any page: lists of links a sentence introduces', () => {
  const story = 'https://blog.example/2025/06/best-tools';
  const tool = (n: number, name: string) => `<h3>${n}. ${name}</h3>${prose(name.toLowerCase())}
    <ul><li><p><b>Plan to spend:</b> $15-$70</p></li><li><p><b>Buying options:</b></p>
    <ul><li><a href="https://shop-a.example/${n}">Shop A (${name})</a></li><li><a href="https://shop-b.example/${n}">Shop B (${name})</a></li><li><a href="https://shop-c.example/${n}">Shop C (${name})</a></li></ul></li></ul>`;

  it('keeps the links after "Buying options:" in a story (the list the sentence opens)', () => {
    const out = md(`<html><body><article><h1>The best tools</h1>${prose('buying')}${tool(1, 'Pliers')}${tool(2, 'Cutters')}${tool(3, 'Testers')}${prose('summary')}</article></body></html>`, story);
    expect(out).toContain('[Shop B (Cutters)](https://shop-b.example/2)');
    expect(out).toContain('**Buying options:**');
  });

  it('still drops the links after a sentence that points to other posts', () => {
    const out = md(`<html><body><article><h1>The best tools</h1>${prose('buying')}${prose('choosing')}${prose('summary')}
      <p>If you liked this post you might also like:</p>
      <ul><li><a href="/2025/05/drills">The best drills</a></li><li><a href="/2025/04/saws">The best saws</a></li><li><a href="/2025/03/clamps">The best clamps</a></li></ul></article></body></html>`, story);
    expect(out).toContain('The summary step reads');
    expect(out).not.toContain('The best saws');
  });
});

describe('docFurnitureKind', () => {
  it('names furniture lines in several languages', () => {
    expect(docFurnitureKind('Table of Contents', 0)).toBe('toc');
    expect(docFurnitureKind('Auf dieser Seite', 0)).toBe('toc');
    expect(docFurnitureKind('Was this article helpful? Yes No', 0)).toBe('feedback');
    expect(docFurnitureKind('Cette page a-t-elle été utile ?', 0)).toBe('feedback');
    expect(docFurnitureKind('Edit on GitHub', 1)).toBe('edit');
    expect(docFurnitureKind('← Previous Getting started Next Configuration →', 0.9)).toBe('pager');
    expect(docFurnitureKind('Siguiente: Instalación', 1)).toBe('pager');
  });

  it('leaves content alone', () => {
    expect(docFurnitureKind('Contents of the configuration file', 0)).toBeNull();
    expect(docFurnitureKind('Next steps', 0)).toBeNull();
    expect(docFurnitureKind('Next steps: deploy the app', 0.8)).toBeNull();
    expect(docFurnitureKind('Next.js and React', 1)).toBeNull();
    expect(docFurnitureKind('Next, run the installer and pick a folder.', 0)).toBeNull();
    expect(docFurnitureKind('Edit this page to change the greeting, then reload the browser.', 0)).toBeNull();
  });
});

describe('documentation pages: markdown', () => {
  it('writes an underscore inside a word as it is (`group_id`), escaping only one that could be emphasis', () => {
    const out = md(`<html><body><main><h1>Feed fields</h1><p>Every variant carries the same group_id, and the seller_name is the merchant of record; _draft_ items are skipped when the feed is read.</p>${prose('feed')}</main></body></html>`);
    expect(out).toContain('same group_id, and the seller_name is');
    expect(out).toContain('\\_draft\\_ items');
  });
});
