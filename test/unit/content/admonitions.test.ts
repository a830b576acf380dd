import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';

const md = (html: string, url = 'https://docs.example/en/latest/client.html') => parsePage(load(html), url, { text: false, links: false, metadata: false }).markdown;

const prose = (topic: string) =>
  `<p>The ${topic} step reads the configuration file, checks every key against the schema, and reports each problem with its line number, so that a mistake is found before anything runs.</p>`;
const page = (inner: string) => `<html><body><main><article><h1>Client</h1>${prose('first')}${inner}${prose('last')}</article></main></body></html>`;

describe("a documentation page's admonitions", () => {
  it('are quote blocks with their title in bold (Sphinx and MkDocs, Docusaurus, GitHub, MDN, VuePress, alerts)', () => {
    const out = md(
      page(`<div class="admonition note"><p class="admonition-title">Note</p><p>Sessions are reused across requests.</p></div>
      <div class="theme-admonition theme-admonition-tip admonition_xJq3 alert alert--success"><div class="admonitionHeading_Gvgb"><span class="icon"></span>tip</div><div class="admonitionContent_BuS1"><p>Use the retry helper.</p></div></div>
      <div class="markdown-alert markdown-alert-warning"><p class="markdown-alert-title">Warning</p><p>Never disable verification.</p></div>
      <div class="notecard note"><p><strong>Note:</strong> This feature is available in Web Workers.</p></div>
      <div class="custom-block tip"><p class="custom-block-title">TIP</p><p>Prefer the async client.</p></div>
      <div class="alert alert-info">Version 3 changes the default timeout.</div>`),
    );
    expect(out).toContain('> **Note**\n>\n> Sessions are reused across requests.');
    expect(out).toContain('> **tip**\n>\n> Use the retry helper.');
    expect(out).toContain('> **Warning**\n>\n> Never disable verification.');
    expect(out).toContain('> **Note:** This feature is available in Web Workers.');
    expect(out).toContain('> **TIP**\n>\n> Prefer the async client.');
    expect(out).toContain('> Version 3 changes the default timeout.');
  });

  it('keep their code blocks whole, indentation included', () => {
    const out = md(page('<div class="admonition warning"><p class="admonition-title">Warning</p><p>Close the session:</p><pre><code class="language-python">with Session() as s:\n    s.get(url)\n</code></pre></div>'));
    expect(out).toContain('> ```python\n> with Session() as s:\n>     s.get(url)\n> ```');
  });

  it('are not every block named so: a CMS text field, a feature callout, an alert holding a section', () => {
    const field = md(page('<div class="field custom-block field__item"><p>Please note that this list is offered as an informational resource only.</p></div>'));
    expect(field).toContain('\nPlease note that this list');
    expect(field).not.toContain('> Please note');
    const section = md(page(`<div class="alert alert-info"><h4>Why order from us?</h4><ul><li>Experts in store</li><li>Fast delivery</li></ul></div>`));
    expect(section).toContain('#### Why order from us?');
    expect(section).not.toMatch(/^>/m);
    const feature = md(page('<section class="callout"><h2>Soft wool</h2><p>Superfine fibres regulate temperature.</p></section>'));
    expect(feature).not.toMatch(/^>/m);
  });
});
