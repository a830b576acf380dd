import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { completeStreamedContent, MAX_HOLDERS } from '../../../functions/core/content/streamed-content.js';
import { parsePage } from '../../../functions/core/engine/parse.js';

// React's streamed server rendering: a Suspense boundary's fallback where the content belongs, the
// content in a hidden holder at the end of the document, and the inline script that moves it.
const RUNTIME = '<script>$RC=function(b,c){/* React\'s completeBoundary */};$RS=function(a,b){/* completeSegment */};</script>';
const md = (html: string) => parsePage(load(html), 'https://docs.example/guide', { text: false, links: false, metadata: false }).markdown;

describe('React streamed content (completeStreamedContent)', () => {
  it('moves a completed boundary into place, replacing its fallback, as $RC does in a browser', () => {
    const html = `<!doctype html><html><head><title>Guide</title></head><body><header><nav><a href="/">Home</a></nav></header>
      <main><h1>Getting started</h1><p>Install the package first, then follow the chapters in order; each one builds on the last.</p>
      <!--$?--><template id="B:0"></template><div class="spinner">Loading…</div><!--/$-->
      <p>Questions go to the forum, where the authors answer within a day or two.</p></main>
      ${RUNTIME}<div hidden id="S:0"><h2>Chapter one</h2><p>Functions are values: they can be passed around, stored in lists and returned from other functions.</p><pre><code>const add = (a, b) =&gt; a + b;</code></pre></div>
      <script>$RC("B:0","S:0")</script></body></html>`;
    const out = md(html);
    expect(out).toContain('## Chapter one');
    expect(out).toContain('Functions are values');
    expect(out).toContain('const add = (a, b) => a + b;');
    expect(out).not.toContain('Loading');
    // In its place: after the introduction, before the closing line.
    expect(out.indexOf('Install the package')).toBeLessThan(out.indexOf('Chapter one'));
    expect(out.indexOf('Chapter one')).toBeLessThan(out.indexOf('Questions go to the forum'));
  });

  it('completes segments and nested boundaries in the order of the scripts, and leaves other hidden blocks alone', () => {
    const $ = load(`<body><main><!--$?--><template id="B:0"></template><p>wait</p><!--/$--></main>
      <div hidden id="S:1"><p>inner segment</p></div>
      <div hidden id="S:0"><section><h2>Outer</h2><!--$--><template id="P:1"></template><!--/$--><p>after</p></section></div>
      <div hidden id="S:9"><p>never completed</p></div><div hidden id="notes"><p>a hidden note</p></div>
      <script>$RS("S:1","P:1");$RC("B:0","S:0")</script></body>`);
    expect(completeStreamedContent($)).toBe(2);
    expect($('main').find('h2, p').toArray().map((e) => $(e).text())).toEqual(['Outer', 'inner segment', 'after']);
    expect($('main').html()).not.toContain('template');
    // A holder no instruction names stays hidden where it is, as it would in a browser.
    expect($('[id="S:9"]').attr('hidden')).toBeDefined();
    expect($('#notes').attr('hidden')).toBeDefined();
    // Done once: a second call finds nothing to move.
    expect(completeStreamedContent($)).toBe(0);
  });

  it('a page saved without its scripts is completed by React\'s naming (S:x into P:x, else B:x)', () => {
    const $ = load(`<body><article><h1>Index funds</h1><!--$?--><template id="B:2"></template><p>…</p><!--/$--></article>
      <div hidden id="S:2"><div id="how"><template id="P:f"></template></div></div>
      <div hidden id="S:f"><p>An index fund holds every stock of an index in its weight.</p></div></body>`);
    expect(completeStreamedContent($)).toBe(2);
    expect($('article').text()).toContain('An index fund holds every stock');
    expect($('article').text()).not.toContain('…');
    expect($('div[hidden]').length).toBe(0);
  });

  it('a page saved without its comments and scripts: each boundary replaces its template and a loading line only, not the boundaries after it', () => {
    // No <!--$?--> … <!--/$--> to find a fallback's end by: walking to the parent's end took the
    // next boundaries' templates with the first fallback, and every later holder stayed hidden.
    const $ = load(`<body><article><h1>Index funds</h1><div class="body"><template id="B:0"></template><div>Loading paragraph...</div>
      <template id="B:1"></template><div>Loading image…</div><template id="B:2"></template><div class="offer">Open an account today</div>
      <template id="B:3"></template><p>Sources and methods are listed at the end.</p></div></article>
      <div hidden id="S:0"><p>An index fund holds every stock of an index.</p></div><div hidden id="S:1"><figure><img src="/a.png" alt="Chart"></figure></div>
      <div hidden id="S:2"><h2>How they work</h2></div><div hidden id="S:3"><p>Costs are low because nobody picks stocks.</p></div></body>`);
    expect(completeStreamedContent($)).toBe(4);
    expect($('div[hidden]').length).toBe(0);
    const body = $('.body').children().toArray().map((e) => `${e.tagName}:${$(e).text().trim()}`);
    expect(body).toEqual([
      'p:An index fund holds every stock of an index.',
      'figure:',
      'h2:How they work',
      'div:Open an account today',
      'p:Costs are low because nobody picks stocks.',
      'p:Sources and methods are listed at the end.',
    ]);
  });

  it('a boundary whose holder holds its own template, or whose template is missing, is left as it was', () => {
    const $ = load('<body><div hidden id="S:0"><template id="B:0"></template><p>x</p></div><div hidden id="S:3"><p>y</p></div><script>$RC("B:0","S:0");$RC("B:7","S:3")</script></body>');
    expect(completeStreamedContent($)).toBe(0);
    expect($('div[hidden]').length).toBe(2);
  });

  it('moves at most MAX_HOLDERS holders (each move searches its parent\'s children): the rest of a page of 20,000 sibling holders stays hidden', () => {
    const n = 20_000;
    const parts = Array.from({ length: n }, (_, i) => `<template id="P:${i}"></template>`).join('') + Array.from({ length: n }, (_, i) => `<div hidden id="S:${i}"><p>${i}</p></div>`).join('');
    const $ = load(`<body><main>${parts}</main><script>${Array.from({ length: n }, (_, i) => `$RS("S:${i}","P:${i}");`).join('')}</script></body>`);
    expect(completeStreamedContent($)).toBe(MAX_HOLDERS);
    expect($('div[hidden]').length).toBe(n - MAX_HOLDERS);
  });
});
