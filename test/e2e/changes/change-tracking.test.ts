import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { articlePage, CHALLENGE_PAGE, startRevisableSite, type RevisableSite } from '../../fixtures/revisable-site.js';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { verifySignature } from '../../../functions/core/webhooks/signature.js';
import { setDeliveryPolicy } from '../../../functions/core/webhooks/deliveries.js';

// API.md "Change tracking" through the local service: POST /v1/scrape and site-crawl runs with
// the `changes` format against a site revised between fetches, page.changed to a local receiver,
// and the history endpoints.

let svc: TestService;
let site: RevisableSite;
let hooks: WebhookReceiver;
let hookSecret: string;
beforeAll(async () => {
  setDeliveryPolicy({ backoffSeconds: [1, 1], timeoutMs: 5_000 });
  [site, hooks] = await Promise.all([startRevisableSite(), startWebhookReceiver()]);
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `${site.hostPort},${hooks.hostPort}` });
  const w = await svc.call('/v1/webhooks', { method: 'POST', json: { url: `${hooks.baseUrl}/changes`, events: ['page.changed'] } });
  expect(w.status).toBe(201);
  hookSecret = w.body.secret;
});
afterAll(async () => {
  setDeliveryPolicy();
  await svc?.destroy();
  await Promise.all([site?.close(), hooks?.close()]);
});

const scrape = (path: string, extra: Record<string, unknown> = {}) =>
  svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}${path}`, engine: 'http', formats: ['markdown', 'changes'], ...extra } });

const product = (price: string, sentence: string, stamp: string, extra = '') =>
  articlePage({
    title: 'Walnut desk lamp',
    body: `<p>Updated ${stamp} ago · Rendered at 2026-11-2${stamp.length % 9}T10:0${stamp.length % 6}:1${stamp.length % 7}Z</p>
<p>${sentence}</p>
<p>Price: <strong>${price}</strong></p>
<p>Read <a href="/manual?utm_source=news&amp;ts=${stamp.length}1700000">the manual</a> first.</p>${extra}`,
    aside: `<ul><li><a href="/r${stamp.length}">Recommended ${stamp}</a></li></ul>`,
  });

describe('POST /v1/scrape with formats ["changes"]', () => {
  it('reports new, then same for a noise-only revision, then changed with the diff of a real edit', async () => {
    site.pages.set('/lamp', { html: product('$49.99', 'The Walnut lamp gives a warm light for reading.', '5 minutes') });
    const first = await scrape('/lamp');
    expect(first.status).toBe(200);
    expect(first.body.change).toMatchObject({ status: 'new', previous_fetched_at: null, diff: null, fields: null });

    // Noise only: a relative time, a render timestamp, a tracking parameter and the aside rotate.
    site.pages.set('/lamp', { html: product('$49.99', 'The Walnut lamp gives a warm light for reading.', '3 hours') });
    const second = await scrape('/lamp');
    expect(second.body.change).toMatchObject({ status: 'same', diff: null, added_lines: 0, removed_lines: 0 });
    expect(second.body.change.previous_fetched_at).toEqual(expect.any(String));

    // A real edit: one price.
    site.pages.set('/lamp', { html: product('$44.99', 'The Walnut lamp gives a warm light for reading.', '2 days') });
    const third = await scrape('/lamp');
    expect(third.body.change.status).toBe('changed');
    expect(third.body.change).toMatchObject({ added_lines: 1, removed_lines: 1 });
    expect(third.body.change.diff).toMatch(/^--- .*\n\+\+\+ .*\n@@ /);
    expect(third.body.change.diff).toContain('-Price: **$49.99**');
    expect(third.body.change.diff).toContain('+Price: **$44.99**');

    const event = await waitForEvent((w) => w.json.url === `${site.baseUrl}/lamp` && w.json.status === 'changed');
    expect(verifySignature(hookSecret, { id: String(event.headers['webhook-id']), timestamp: String(event.headers['webhook-timestamp']), signature: String(event.headers['webhook-signature']) }, event.body)).toBe(true);
    expect(event.json).toMatchObject({ event: 'page.changed', tag: 'default', added_lines: 1, removed_lines: 1, run_id: null, job_id: null });

    // History: the list (newest first) and the detail with both versions.
    const list = await svc.call(`/v1/changes?url=${encodeURIComponent(`${site.baseUrl}/lamp`)}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { status: string }) => c.status)).toEqual(['changed', 'new']);
    const detail = await svc.call(`/v1/changes/${list.body.data[0].change_id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.diff).toBe(third.body.change.diff);
    expect(detail.body.previous_markdown).toContain('$49.99');
    expect(detail.body.current_markdown).toContain('$44.99');
    expect((await svc.call('/v1/changes?status=new')).body.data.every((c: { status: string }) => c.status === 'new')).toBe(true);
  });

  it('reports a challenge and a 503 as unavailable and keeps the baseline', async () => {
    site.pages.set('/stock', { html: product('$10.00', 'In stock.', '1 minute') });
    expect((await scrape('/stock', { change_options: { tag: 'stock' } })).body.change.status).toBe('new');
    site.pages.set('/stock', CHALLENGE_PAGE);
    const challenged = await scrape('/stock', { change_options: { tag: 'stock' } });
    expect(challenged.status).toBe(200);
    expect(challenged.body.change).toMatchObject({ status: 'unavailable', diff: null });
    site.pages.set('/stock', { status: 503, html: '<html><body><h1>Service unavailable</h1></body></html>' });
    expect((await scrape('/stock', { change_options: { tag: 'stock' } })).body.change.status).toBe('unavailable');
    // Back with the same content: compared with the kept baseline, not with the error pages.
    site.pages.set('/stock', { html: product('$10.00', 'In stock.', '9 minutes') });
    expect((await scrape('/stock', { change_options: { tag: 'stock' } })).body.change.status).toBe('same');
  });

  it('removes what ignore_tags and ignore_patterns name from the comparison', async () => {
    const page = (n: string, banner: string) => articlePage({ title: 'Offers', body: `<p>Visitors today: ${n}</p><div class="banner">${banner}</div><p>Free delivery over $50.</p>` });
    const opts = { change_options: { tag: 'ignore', ignore_tags: ['.banner'], ignore_patterns: ['Visitors today: \\d+'] } };
    site.pages.set('/offers', { html: page('120', 'Sale ends Friday') });
    expect((await scrape('/offers', opts)).body.change.status).toBe('new');
    site.pages.set('/offers', { html: page('987', 'Sale extended') });
    const again = await scrape('/offers', opts);
    expect(again.body.change.diff).toBeNull();
    expect(again.body.change.status).toBe('same');
  });

  it('answers 400 naming a bad regex, a bad selector, and change_options without the format', async () => {
    const bad = await scrape('/lamp', { change_options: { ignore_patterns: ['ok', '(unclosed'] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.change_options.ignore_patterns.1' })]));
    const sel = await scrape('/lamp', { change_options: { ignore_tags: ['div[['] } });
    expect(sel.status).toBe(400);
    expect(sel.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.change_options.ignore_tags.0' })]));
    const without = await svc.call('/v1/scrape', { method: 'POST', json: { url: `${site.baseUrl}/lamp`, change_options: { tag: 'x' } } });
    expect(without.status).toBe(400);
    const many = await scrape('/lamp', { change_options: { ignore_patterns: Array.from({ length: 21 }, (_, i) => `p${i}`) } });
    expect(many.status).toBe(400);
  });
});

describe('history routes: bad times and dropping a baseline', () => {
  it('answers 400 {code, message} for a since out of range (before 1970), never 500', async () => {
    for (const since of ['1969-12-31T23:59:59Z', '0000-01-01T00:00:00Z', '1969-12-31T23:59:59.999+00:00']) {
      const r = await svc.call(`/v1/changes?since=${encodeURIComponent(since)}`);
      expect(r.status, since).toBe(400);
      expect(r.body).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
    }
    for (const since of ['1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) expect((await svc.call(`/v1/changes?since=${since}`)).status).toBe(200);
  });

  it('DELETE /v1/changes?url=&tag= drops the baseline and its history: the next scrape is new, a second delete is 404', async () => {
    site.pages.set('/dropme', { html: articlePage({ title: 'Drop me', body: '<p>Kept text.</p>' }) });
    const opts = { change_options: { tag: 'drop' } };
    expect((await scrape('/dropme', opts)).body.change.status).toBe('new');
    const url = `${site.baseUrl}/dropme`;
    const q = `url=${encodeURIComponent(url)}&tag=drop`;
    const del = await svc.call(`/v1/changes?${q}`, { method: 'DELETE' });
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ tag: 'drop', baseline: true, changes: 1, snapshots: 1 });
    expect((await svc.call(`/v1/changes?${q}`)).body.data).toEqual([]);
    expect((await scrape('/dropme', opts)).body.change.status).toBe('new');
    expect((await svc.call(`/v1/changes?${q}`, { method: 'DELETE' })).status).toBe(200);
    expect((await svc.call(`/v1/changes?${q}`, { method: 'DELETE' })).status).toBe(404);
    expect((await svc.call(`/v1/changes?url=${encodeURIComponent(url)}`, { method: 'DELETE' })).status).toBe(400);
  });
});

describe('runs of page-content and css-extract with formats ["changes"]', () => {
  const runToEnd = async (scraper_id: string, input: Record<string, unknown>) => {
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id, input } });
    expect(r.status).toBe(201);
    let run = r.body;
    for (let i = 0; i < 30 && !['succeeded', 'failed', 'blocked', 'timed_out', 'cancelled'].includes(run.status); i++) run = (await svc.call(`/v1/runs/${run.id}?wait=5`)).body;
    const items = (await svc.call(`/v1/runs/${run.id}/results`)).body.data;
    return { run, items };
  };
  const listing = (price: string, stock: string) => articlePage({ title: 'Kettle', body: `<p class="price">${price}</p><p class="stock">${stock}</p><p>Updated ${price.length} minutes ago</p>` });

  it('css-extract reports the changed field by JSON pointer, and counts statuses in run stats', async () => {
    const input = { url: `${site.baseUrl}/kettle`, engine: 'http', fields: { price: { selector: '.price' }, stock: { selector: '.stock' } }, formats: ['changes'], change_options: { tag: 'css' } };
    site.pages.set('/kettle', { html: listing('$20', 'In stock') });
    const first = await runToEnd('css-extract', input);
    expect(first.items[0].data).toMatchObject({ price: '$20', change: { status: 'new' } });
    expect(first.run.stats.changes).toEqual({ new: 1, same: 0, changed: 0, removed: 0, unavailable: 0 });
    site.pages.set('/kettle', { html: listing('$18', 'In stock') });
    const second = await runToEnd('css-extract', input);
    expect(second.items[0].data.change).toMatchObject({ status: 'changed', diff: null, fields: { '/price': { previous: '$20', current: '$18' } } });
    expect(second.run.stats.changes).toMatchObject({ changed: 1 });
  });

  it('page-content reports a 404 of a known page as removed once, and a 503 as unavailable', async () => {
    const input = { url: `${site.baseUrl}/notice`, engine: 'http', formats: ['changes'], change_options: { tag: 'pc' } };
    site.pages.set('/notice', { html: articlePage({ title: 'Notice', body: '<p>The shop closes at six.</p>' }) });
    expect((await runToEnd('page-content', input)).items[0].data.change.status).toBe('new');
    site.pages.set('/notice', { status: 503, html: '<html><body>Down</body></html>' });
    const down = await runToEnd('page-content', input);
    expect(down.items[0].data.change.status).toBe('unavailable');
    expect(down.run.stats.changes).toMatchObject({ unavailable: 1 });
    site.pages.delete('/notice');
    expect((await runToEnd('page-content', input)).items[0].data.change.status).toBe('removed');
    expect((await runToEnd('page-content', input)).items[0].data.change.status).toBe('same');
  });
});

describe('site-crawl with formats ["changes"]', () => {
  const crawl = async () => {
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${site.baseUrl}/shop/`, max_pages: 50, max_depth: 2, sitemap: 'skip', engine: 'http', formats: ['changes'], change_options: { tag: 'crawl' } } } });
    expect(r.status).toBe(201);
    let run = r.body;
    for (let i = 0; i < 60 && !['succeeded', 'failed', 'blocked', 'timed_out', 'cancelled'].includes(run.status); i++) run = (await svc.call(`/v1/runs/${run.id}?wait=5`)).body;
    expect(run.status).toBe('succeeded');
    const items = (await svc.call(`/v1/runs/${run.id}/results?limit=200`)).body.data as Array<{ url: string; data: { change: { status: string; diff: string | null } } }>;
    return { run, items, status: (path: string) => items.filter((i) => i.url === `${site.baseUrl}${path}`).map((i) => i.data.change.status) };
  };
  const shop = (links: string[]) => articlePage({ title: 'Shop', body: `<p>All products.</p><ul>${links.map((l) => `<li><a href="${l}">${l}</a></li>`).join('')}</ul>` });
  const item = (name: string, cell: string) => articlePage({ title: name, body: `<p>${name} is a fine product.</p><table><tr><th>Colour</th><th>Stock</th></tr><tr><td>Red</td><td>${cell}</td></tr></table>` });

  it('reports a table-cell edit as changed, and a page no longer reached as removed exactly once', async () => {
    site.pages.set('/shop/', { html: shop(['/shop/a', '/shop/b', '/shop/c']) });
    site.pages.set('/shop/a', { html: item('Alpha', '4') });
    site.pages.set('/shop/b', { html: item('Beta', '7') });
    site.pages.set('/shop/c', { html: item('Gamma', '1') });
    const first = await crawl();
    expect(first.items.map((i) => i.data.change.status)).toEqual(['new', 'new', 'new', 'new']);
    expect(first.run.stats.changes).toEqual({ new: 4, same: 0, changed: 0, removed: 0, unavailable: 0 });

    // b's stock cell changes; c is unlinked and gone.
    site.pages.set('/shop/', { html: shop(['/shop/a', '/shop/b']) });
    site.pages.set('/shop/b', { html: item('Beta', '6') });
    site.pages.delete('/shop/c');
    const second = await crawl();
    expect(second.status('/shop/a')).toEqual(['same']);
    expect(second.status('/shop/b')).toEqual(['changed']);
    expect(second.items.find((i) => i.url.endsWith('/shop/b'))!.data.change.diff).toMatch(/-\| Red +\| 7 +\|\n\+\| Red +\| 6 +\|/);
    expect(second.status('/shop/c')).toEqual(['removed']);
    expect(second.run.stats.changes).toMatchObject({ same: 1, changed: 2, removed: 1 });

    const third = await crawl();
    expect(third.status('/shop/c')).toEqual([]);
    expect(third.run.stats.changes).toEqual({ new: 0, same: 3, changed: 0, removed: 0, unavailable: 0 });
    const removed = await svc.call(`/v1/changes?url=${encodeURIComponent(`${site.baseUrl}/shop/c`)}&status=removed`);
    expect(removed.body.data).toHaveLength(1);
  });
});

async function waitForEvent(match: (w: ReceivedWebhook) => boolean): Promise<ReceivedWebhook> {
  for (let i = 0; i < 400; i++) {
    const hit = hooks.at('/changes').find(match);
    if (hit) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no matching page.changed among ${hooks.at('/changes').length} received`);
}
