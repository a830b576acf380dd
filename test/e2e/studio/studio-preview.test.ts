import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { load } from 'cheerio';
import { startTestService, type TestService } from '../../support/local-service.js';

// Studio's selector picker: POST /dashboard/api/studio/preview renders a page in the service's
// browser and returns a screenshot and the boxes of its visible elements with verified selectors;
// POST /dashboard/api/studio/match counts a selector on the page's HTML. The page below is built
// so that naive selectors would be wrong: repeated classes, a duplicated id, generated class
// names, a hidden element, and content its script writes (only a real browser sees it).
const PAGE = `<!doctype html><html><head><title>Shop</title>
<style>body{font:16px sans-serif;margin:0} li{margin:4px} .hidden{display:none}</style></head><body>
<header id="top"><h1>Shop</h1><nav><a href="/a">A</a> <a href="/b">B</a></nav></header>
<main>
  <ul class="products">
    <li class="product"><span class="name">Red shoe</span> <span class="price">$10</span></li>
    <li class="product"><span class="name">Blue shoe</span> <span class="price">$12</span></li>
    <li class="product"><span class="name css-1x9f8a7">Green shoe</span> <span class="price">$14</span></li>
  </ul>
  <p id="dup">first</p><p id="dup">second</p>
  <button data-testid="buy">Buy now</button>
  <p class="hidden" id="secret-note">never shown</p>
  <div id="late"></div>
</main>
<script>document.getElementById('late').innerHTML = '<p class="rendered">Written by script</p>';</script>
</body></html>`;

// A page that rewrites what a main-world measuring script would call: every selector it built
// would be a nested :has() (20 s for one preview, issue 37 finding 2), every box empty.
const HOSTILE = `<!doctype html><html><head><title>Hostile</title><script>
  const bomb = () => 'div:has(div:has(div:has(b)))';
  CSS.escape = bomb;
  Document.prototype.querySelectorAll = function () { return []; };
  Element.prototype.getBoundingClientRect = function () { return { left: 0, top: 0, width: 0, height: 0 }; };
  Object.defineProperty(HTMLElement.prototype, 'innerText', { get: bomb });
</script></head><body><h1>Measured anyway</h1><p id="lead">The page cannot rewrite the preview's script.</p></body></html>`;

// Product cards as most shops write them: divs with no text of their own, so only the card's
// shape (siblings alike) tells that it is the thing that repeats (issue 41 item 2).
const CARDS = `<!doctype html><html><head><title>Cards</title><style>.card{padding:16px;margin:8px;border:1px solid #ccc}</style></head><body><main>
  <div class="grid">
    <div class="card"><h3 class="title">Lamp</h3><span class="price">$30</span><a class="more" href="/p/1">Details</a></div>
    <div class="card"><h3 class="title">Desk</h3><span class="price">$120</span><a class="more" href="/p/2">Details</a></div>
    <div class="card"><h3 class="title">Chair</h3><span class="price">$80</span><a class="more" href="/p/3">Details</a></div>
    <div class="card"><h3 class="title">Shelf</h3><span class="price">$60</span><a class="more" href="/p/4">Details</a></div>
  </div></main></body></html>`;

let site: Server;
let port: number;
let svc: TestService;

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    if (req.url === '/hostile') return res.writeHead(200, { 'content-type': 'text/html' }).end(HOSTILE);
    if (req.url === '/cards') return res.writeHead(200, { 'content-type': 'text/html' }).end(CARDS);
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/next' ? '<!doctype html><title>Next</title><h2 class="after">After the click</h2>' : PAGE.replace('href="/a"', 'href="/next" id="go"'));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  port = (site.address() as AddressInfo).port;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${port}` });
});
afterAll(async () => {
  await svc?.destroy();
  await new Promise((r) => site.close(r));
});

interface Box { selector: string; tag: string; text: string; x: number; y: number; w: number; h: number; group: { selector: string; count: number } | null }

describe('studio preview (pick selectors by pointing)', () => {
  it('returns a PNG and boxes whose selectors each match exactly their element, in the page the browser rendered', async () => {
    const r = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: `http://127.0.0.1:${port}/shop` } });
    expect(r.status).toBe(200);
    const png = Buffer.from(r.body.screenshot, 'base64');
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(r.body.width); // IHDR width: the boxes' coordinate space
    const boxes = r.body.elements as Box[];
    const byText = (t: string) => boxes.find((b) => b.text === t);
    // Script-written content is there (the service's browser ran the page, the console never does).
    expect(byText('Written by script')).toBeDefined();
    // Hidden elements are not offered.
    expect(boxes.some((b) => b.text.includes('never shown'))).toBe(false);
    expect(byText('Buy now')!.selector).toBe('button[data-testid="buy"]');
    expect(byText('Shop')!.selector).toBe('h1');
    // A duplicated id is not unique: the selector falls back to a path, still unique.
    const second = byText('second')!;
    expect(second.selector).not.toContain('#dup');
    // Repeated elements get a positional selector and their group (what item_selector would take).
    const blue = byText('Blue shoe')!;
    expect(blue.group).toEqual({ selector: 'span.name', count: 3 });
    expect(byText('Red shoe')!.selector).not.toBe('span.name');
    // A path names each step by a stable class where that tells it from its siblings.
    expect(byText('Red shoe')!.selector).toBe('li.product:nth-of-type(1) > span.name');
    expect(byText('Green shoe')!.selector).toBe('li.product:nth-of-type(3) > span.name');
    // Generated-looking classes are never used.
    expect(boxes.every((b) => !b.selector.includes('css-1x9f8a7'))).toBe(true);
    // Every selector matches exactly one element of the returned HTML, and that element has the box's text.
    const $ = load(r.body.html);
    expect(boxes.length).toBeGreaterThan(10);
    for (const b of boxes) {
      expect($(b.selector).length, b.selector).toBe(1);
      // innerText (the box) and textContent (the HTML) differ only in whitespace.
      const squash = (t: string) => t.replace(/\s+/g, '');
      expect(squash($(b.selector).text()), b.selector).toContain(squash(b.text).slice(0, 20));
      expect(b.w).toBeGreaterThan(0);
      expect(b.y).toBeLessThan(r.body.height);
    }
    expect($('script').text()).toBe(''); // scripts are emptied in the snapshot
  });

  it('counts matches of a selector on the snapshot with the engine\'s selector engine', async () => {
    const p = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: `http://127.0.0.1:${port}/shop` } });
    const m = await svc.call('/dashboard/api/studio/match', { method: 'POST', json: { html: p.body.html, selector: 'li.product .price' } });
    expect(m.status).toBe(200);
    expect(m.body).toEqual({ selector: 'li.product .price', count: 3, samples: ['$10', '$12', '$14'] });
    const bad = await svc.call('/dashboard/api/studio/match', { method: 'POST', json: { html: p.body.html, selector: 'li[' } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_request');
  });

  it('bounds a count: a selector past the static limits is 422 at once, one within them on a page built for it stops at the deadline', async () => {
    const nested = await svc.call('/dashboard/api/studio/match', { method: 'POST', json: { html: '<p>x</p>', selector: '*:has(*:has(b))' } });
    expect(nested.status).toBe(422);
    expect(nested.body).toMatchObject({ code: 'selector_too_complex', details: [{ path: 'body.selector' }] });
    // p:has(~ b) over 40,000 sibling paragraphs: some 800 million checks, minutes unbounded.
    const wide = `<html><body>${'<p>x</p>'.repeat(40_000)}</body></html>`;
    const bomb = svc.call('/dashboard/api/studio/match', { method: 'POST', json: { html: wide, selector: 'p:has(~ b)' } });
    // Another request is answered meanwhile: the count is not on the thread that serves the API.
    await new Promise((r) => setTimeout(r, 500));
    expect((await svc.call('/v1/tenant')).status).toBe(200);
    const r = await bomb;
    expect(r.status).toBe(422);
    expect(r.body.code).toBe('selector_too_complex');
  }, 60_000);

  it('runs the steps before the one being edited, so a page behind a click can be pointed at', async () => {
    const r = await svc.call('/dashboard/api/studio/preview', {
      method: 'POST',
      json: { url: `http://127.0.0.1:${port}/shop`, steps: [{ action: 'goto', url: 'https://placeholder.invalid/' }, { action: 'click', selector: '#go', navigation: true }, { action: 'extract', fields: { x: { selector: 'h2' } } }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.final_url).toBe(`http://127.0.0.1:${port}/next`);
    expect((r.body.elements as Box[]).find((b) => b.text === 'After the click')?.selector).toBe('h2.after');
  });

  it('refuses what a scrape refuses, with the same codes, and never fills a secret', async () => {
    const forbidden = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: 'http://127.0.0.1:1/' } });
    expect(forbidden.status).toBe(400);
    expect(forbidden.body.code).toBe('target_forbidden');
    const notUrl = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: 'file:///etc/passwd' } });
    expect(notUrl.status).toBe(400);
    const robots = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: `http://127.0.0.1:${port}/private` } });
    expect(robots.status).toBe(422);
    expect(robots.body.code).toBe('robots_disallowed');
    const secret = await svc.call('/dashboard/api/studio/preview', {
      method: 'POST',
      json: { url: `http://127.0.0.1:${port}/shop`, steps: [{ action: 'goto', url: `http://127.0.0.1:${port}/shop` }, { action: 'fill', selector: 'input', value: { secret: 'pw' } }] },
    });
    expect(secret.status).toBe(400);
    expect(secret.body.message).toMatch(/never fills secrets/);
  });

  it('measures in an isolated world: a page that rewrites the DOM functions in its own world changes nothing (issue 37 finding 2)', async () => {
    const r = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: `http://127.0.0.1:${port}/hostile` } });
    expect(r.status).toBe(200);
    const boxes = r.body.elements as Box[];
    expect(boxes.find((b) => b.text === 'Measured anyway')?.selector).toBe('h1');
    expect(boxes.find((b) => b.tag === 'p')?.selector).toBe('#lead');
    expect(boxes.every((b) => !b.selector.includes(':has(') && !b.text.includes(':has('))).toBe(true);
  });

  it('bills the pages a preview fetched, not one per preview (issue 37 finding 9)', async () => {
    const pages = async () => (await svc.call('/v1/tenant')).body.usage.pages as number;
    const before = await pages();
    const r = await svc.call('/dashboard/api/studio/preview', {
      method: 'POST',
      json: { url: `http://127.0.0.1:${port}/shop`, steps: [{ action: 'goto', url: 'https://placeholder.invalid/' }, { action: 'click', selector: '#go', navigation: true }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.pages_done).toBe(2);
    expect((await pages()) - before).toBe(2);
  });

  it('offers the repeated card as an item selector with its count and the fields inside it (issue 41 item 2)', async () => {
    const r = await svc.call('/dashboard/api/studio/preview', { method: 'POST', json: { url: `http://127.0.0.1:${port}/cards` } });
    expect(r.status).toBe(200);
    const boxes = r.body.elements as Array<Box & { item: { selector: string; count: number; fields: Array<{ name: string; selector: string; attr?: string; sample: string }> } | null }>;
    // The card itself is a box (clicking its padding picks it, not main) ...
    const card = boxes.find((b) => b.tag === 'div' && b.text.startsWith('Desk'));
    expect(card).toBeDefined();
    expect(card!.item).toMatchObject({ selector: 'div.card', count: 4 });
    expect(card!.item!.fields).toEqual([
      { name: 'title', selector: 'h3.title', sample: 'Desk' },
      { name: 'price', selector: 'span.price', sample: '$120' },
      { name: 'more', selector: 'a.more', sample: 'Details' },
    ]);
    // ... and every field inside it offers the same item.
    expect(boxes.find((b) => b.text === '$80')?.item?.selector).toBe('div.card');
    const m = await svc.call('/dashboard/api/studio/match', { method: 'POST', json: { html: r.body.html, selector: 'div.card' } });
    expect(m.body.count).toBe(4);
  });

  it('an invalid field selector is a 400 naming the field, before anything runs (issue 41 item 4)', async () => {
    const fields = { title: { selector: 'h3[[bad' } };
    const why = "is not a valid CSS selector: Attribute selector didn't terminate";
    const scrape = await svc.call('/v1/scrape', { method: 'POST', json: { url: `http://127.0.0.1:${port}/shop`, extract: { fields } } });
    expect(scrape.status).toBe(400);
    expect(scrape.body.details).toEqual(expect.arrayContaining([{ path: 'body.extract.fields.title.selector', message: why }]));
    const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'css-extract', input: { url: `http://127.0.0.1:${port}/shop`, fields } } });
    expect(run.status).toBe(400);
    expect(JSON.stringify(run.body.details)).toContain('fields.title.selector');
    expect(JSON.stringify(run.body)).toContain(why);
    const runbook = await svc.call('/v1/runbooks', { method: 'POST', json: { name: 'bad', steps: [{ action: 'goto', url: `http://127.0.0.1:${port}/shop` }, { action: 'extract', fields }] } });
    expect(runbook.status).toBe(400);
    expect(JSON.stringify(runbook.body.details)).toContain('steps.1.fields.title.selector');
    expect(JSON.stringify(runbook.body)).toContain(why);
  });

  it('is audited like every console call', async () => {
    const a = await svc.call('/dashboard/api/audit?action=studio.preview&limit=50');
    expect(a.status).toBe(200);
    const outcomes = (a.body.data as Array<{ action: string; outcome: string }>).map((e) => e.outcome);
    expect(outcomes.length).toBeGreaterThanOrEqual(4);
    expect(outcomes).toEqual(expect.arrayContaining(['allowed', 'error']));
  });
});
