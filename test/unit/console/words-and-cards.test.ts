import { beforeAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { installSelectSemantics } from './select-semantics.js';

// Issue 41 on a server-side DOM: failures, times and keys in words; typed items as cards with
// each field's source; a change as a badge linking to its diff; controls that state their
// default; what a crawl covers. What a person reads never holds raw JSON or an ISO timestamp.

let words: any;
let typed: any;
let keys: any;
let sf: any;
let scope: any;
let extras: any;
let results: any;

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const JSONISH = /[{}]|"\w+":/;

beforeAll(async () => {
  const { document, window, Node, DocumentFragment, HTMLElement } = parseHTML('<!doctype html><html><body></body></html>');
  installSelectSemantics(window);
  Object.assign(globalThis, { document, Node, DocumentFragment, HTMLElement, location: new URL('http://127.0.0.1:3000/'), CSS: { escape: (s: string) => s } });
  const load = (p: string) => import(/* @vite-ignore */ `../../../console/lib/${p}`);
  [words, typed, keys, sf, scope, extras, results] = await Promise.all(['words.js', 'typed-view.js', 'keys.js', 'schema-form.js', 'crawl-scope.js', 'run-extras.js', 'results.js'].map(load));
});

describe('failures in words', () => {
  it('says what a connection refused, a timeout, a refused target and a bare code mean, and keeps what the service said', () => {
    const w = words.failureWords({ code: 'worker_failed', message: 'The run failed after retries: connect ECONNREFUSED 127.0.0.1:9600' });
    expect(w.text).toMatch(/^The site did not accept the connection/);
    expect(w.text).not.toMatch(/ECONNREFUSED|worker_failed/);
    expect(w.detail).toContain('connect ECONNREFUSED 127.0.0.1:9600');
    expect(w.detail).toContain('worker_failed');
    expect(words.failureWords({ code: 'scrape_failed', message: 'Request to https://x.test/ timed out after 30000 ms' }).text).toMatch(/took too long/);
    expect(words.failureWords({ code: 'target_forbidden', message: '10.0.0.1 is a private address' }).text).toMatch(/not a public site/);
    expect(words.failureWords({ code: 'worker_failed', message: '' }).text).toBe('The run failed after retries.');
    expect(words.failureWords('getaddrinfo ENOTFOUND nope.invalid').text).toMatch(/name could not be found/);
    expect(words.failureWords({ code: 'fetch_failed', message: 'UND_ERR_SOCKET: other side closed' }).text).toMatch(/closed the connection before it answered/);
  });

  it('tells a failed request from a note in the run log', () => {
    expect(extras.logKind({ decision: 'error', engine: 'http', status: null, timing_ms: 40, reason: 'connect ECONNREFUSED' })).toBe('failed');
    expect(extras.logKind({ decision: 'error', engine: null, status: null, timing_ms: 0, reason: 'sitemap discovery stopped: 50 sitemaps fetched (the cap)' })).toBe('note');
    expect(extras.logKind({ decision: 'fetched', engine: 'http' })).toBe('fetched');
  });
});

describe('times in words', () => {
  const now = new Date('2026-12-02T15:00:00Z');
  it('says a 09:00 Europe/Berlin job\'s next run in its zone and the viewer\'s, never in raw ISO', () => {
    const s = words.zonedWords('2026-12-03T08:00:00Z', 'Europe/Berlin', { viewer: 'UTC', now });
    expect(s).toBe('tomorrow at 09:00 Europe/Berlin (08:00 your time, in 17 hours)');
    // Viewer in the same zone: said once.
    expect(words.zonedWords('2026-12-03T08:00:00Z', 'Europe/Berlin', { viewer: 'Europe/Berlin', now })).toBe('tomorrow at 09:00 Europe/Berlin (in 17 hours)');
    // Another day for the viewer.
    expect(words.zonedWords('2026-12-03T08:00:00Z', 'Europe/Berlin', { viewer: 'America/Los_Angeles', now })).toBe('tomorrow at 09:00 Europe/Berlin (00:00 your time, in 17 hours)');
    expect(words.zonedWords('2026-12-03T08:00:00Z', 'Europe/Berlin', { viewer: 'Pacific/Auckland', now })).toBe('tomorrow at 09:00 Europe/Berlin (today at 21:00 your time, in 17 hours)');
  });

  it('writes a moment as today / yesterday / a day and month, in the given zone', () => {
    expect(words.whenWords('2026-12-02T09:15:30Z', { zone: 'UTC', now })).toBe('today at 09:15');
    expect(words.whenWords('2026-12-01T23:59:00Z', { zone: 'UTC', now })).toBe('yesterday at 23:59');
    expect(words.whenWords('2026-11-20T08:00:00Z', { zone: 'UTC', now })).toBe('Fri 20 Nov at 08:00');
    expect(words.whenWords('2025-03-12T17:02:00Z', { zone: 'UTC', now })).toBe('Wed 12 Mar 2025 at 17:02');
    expect(words.relativeWords(new Date(now.getTime() - 3 * 3600_000), now)).toBe('3 hours ago');
    expect(words.windowWords({ last: '7d' })).toBe('the last 7 days');
    expect(words.windowWords({ last: '24h' })).toBe('the last 24 hours');
    expect(words.windowWords(null)).toBe('default');
    expect(words.windowWords({ since: '2026-11-01T00:00:00Z' })).not.toMatch(ISO);
  });
});

describe('typed items and page kinds', () => {
  const product = {
    name: 'Trail shoe', price: '89.90', currency: 'EUR', availability: 'InStock', brand: { name: 'Acme' },
    aggregate_rating: { rating_value: 4.5, best_rating: 5, review_count: 120 }, gtin: [{ type: 'gtin13', value: '4006381333931' }],
    breadcrumbs: [{ name: 'Shoes', url: 'https://shop.test/shoes' }, { name: 'Trail', url: 'https://shop.test/shoes/trail' }],
    provenance: { name: { source: 'json-ld', path: '$.name', confidence: 1 }, price: { source: 'microdata', path: 'offers.price', confidence: 0.95 }, availability: { source: 'model', path: null, confidence: 0.5 } },
    warnings: ['regular_price not found'],
  };

  it('renders a product as a card: each field in words with where it was found and how sure', () => {
    const card = typed.typedCard('product', product);
    const text = card.textContent;
    expect(text).toContain('Trail shoe · 89.90 EUR · In stock');
    const row = (f: string) => card.querySelector(`tr[data-field="${f}"]`);
    expect(row('name').textContent).toContain('structured data (JSON-LD)');
    expect(row('price').textContent).toContain('microdata');
    expect(row('availability').textContent).toMatch(/a model .*a guess \(50%\)/);
    expect(row('brand').textContent).toContain('Acme');
    expect(row('aggregate_rating').textContent).toContain('4.5 of 5 (120 reviews)');
    expect(row('breadcrumbs').textContent).toContain('Shoes › Trail');
    expect(row('gtin').textContent).toContain('gtin13 4006381333931');
    expect(card.querySelector('tr[data-field="provenance"]')).toBeNull();
    expect(text).toContain('regular_price not found');
    expect(text).not.toMatch(JSONISH);
  });

  it('cards every typed object of an item, and none when the page was of no such kind', () => {
    const it = { url: 'https://shop.test/p', data: { product, article: { headline: 'Launch', authors: [{ name: 'Ann' }], date_published: '2026-11-20T08:00:00Z', provenance: {} }, job_posting: null } };
    const cards = typed.typedCards(it);
    expect(Array.from(cards.querySelectorAll('.typed-card')).map((c: any) => c.dataset.kind)).toEqual(['product', 'article']);
    expect(cards.textContent).toContain('Launch · Ann');
    expect(cards.textContent).not.toMatch(ISO);
    expect(typed.typedCards({ data: { product: null } })).toBeNull();
    expect(typed.typedSummary('product_list', { category_name: 'Shoes', products: [{ name: 'a' }, { name: 'b' }] })).toBe('Shoes: 2 products');
    expect(typed.typedSummary('job_posting', { job_title: 'Engineer', hiring_organization: { name: 'Acme' }, job_location: { raw: 'Berlin' } })).toBe('Engineer · Acme · Berlin');
  });

  it('labels a page\'s kind', () => {
    expect(typed.pageKindLabel({ data: { metadata: { page_kind: 'documentation' } } }).textContent).toBe('Documentation');
    expect(typed.pageKindLabel({ data: { metadata: {} } })).toBeNull();
  });

  it('shows a change as a badge linking to its diff, never as JSON', () => {
    const a = typed.changeBadge({ status: 'changed', previous_fetched_at: '2026-12-01T08:00:00Z', added_lines: 2, removed_lines: 1, diff: '@@' }, { url: 'https://x.test/a', runId: 'run_1', tag: 'daily' });
    expect(a.tagName).toBe('A');
    expect(a.getAttribute('href')).toBe('#/changes?url=https%3A%2F%2Fx.test%2Fa&run_id=run_1&tag=daily');
    expect(a.textContent).toBe('changed +2 −1');
    expect(a.getAttribute('title')).not.toMatch(ISO);
    const same = typed.changeBadge({ status: 'same', previous_fetched_at: null }, { url: 'https://x.test/a' });
    expect(same.tagName).toBe('SPAN');
    expect(same.textContent).toBe('same');
  });

  it('the results table shows the change column as a badge and typed objects in a line', () => {
    const v = results.itemsView({ runId: 'run_9' });
    v.update([{ url: 'https://x.test/a', status_code: 200, data: { title: 'A', change: { status: 'new', previous_fetched_at: null }, product, metadata: { page_kind: 'product' } } }]);
    const text = v.el.textContent;
    expect(v.el.querySelector('a.change-link')?.getAttribute('href')).toContain('run_id=run_9');
    expect(text).toContain('Trail shoe · 89.90 EUR · In stock');
    expect(text).toContain('Product');
    expect(text).not.toMatch(JSONISH);
    v.setEmpty('This run finished without storing any items.');
    v.update([]);
    expect(v.el.textContent).toContain('This run finished without storing any items.');
  });
});

describe('keys', () => {
  const now = Date.parse('2026-12-02T12:00:00Z');
  const old = { key_id: 'key_a', name: 'CI', prefix: 'glr_AAAA', created_at: '2026-11-01T10:00:00Z', expires_at: '2026-12-03T12:00:00Z', revoked_at: null, rotated_to: 'key_b', status: 'active' };
  const cur = { key_id: 'key_b', name: 'CI', prefix: 'glr_BBBB', created_at: '2026-12-02T11:00:00Z', expires_at: null, revoked_at: null, rotated_to: null, status: 'active' };
  it('calls a rotated key in its grace period "retiring", and a past one "expired"', () => {
    expect(keys.keyState(old, now)).toBe('retiring');
    expect(keys.keyState(cur, now)).toBe('active');
    expect(keys.keyState(old, Date.parse('2026-12-04T00:00:00Z'))).toBe('expired');
    expect(keys.keyState({ ...cur, status: 'revoked', revoked_at: '2026-12-02T00:00:00Z' }, now)).toBe('revoked');
  });

  it('names keys that share a name apart (prefix, day made, replaced or current)', () => {
    const l = keys.keyLabels([old, cur, { ...cur, key_id: 'key_c', name: 'Other', prefix: 'glr_CCCC' }], new Date(now));
    expect(l.get('key_a')).toBe('key “CI” (glr_AAAA…, made Sun 1 Nov, replaced, retiring)');
    expect(l.get('key_b')).toBe('key “CI” (glr_BBBB…, made today, current)');
    expect(l.get('key_c')).toBe('key “Other”');
    expect(new Set(l.values()).size).toBe(3);
  });

  it('says scopes in words, the raw name beside', () => {
    expect(keys.scopeText('runs:write')).toBe('start and cancel runs (runs:write)');
    expect(keys.scopeText('new:thing')).toBe('new:thing');
  });
});

describe('controls state their default; help in plain words', () => {
  it('a boolean with a declared default is a box in that state; one whose description says it offers "Default (on)"', () => {
    const f = sf.schemaForm({ type: 'object', properties: {
      only_main_content: { type: 'boolean', default: true, description: 'markdown: the main content only, without navigation, headers, footers, sidebars, related links, comments or share bars (default true); false: the whole page' },
      said: { type: 'boolean', description: 'Something (default true)' },
      unknown: { type: 'boolean' },
    } }, { idPrefix: 'd' });
    const box = f.el.querySelector('#d-only_main_content');
    expect([box.getAttribute('type'), box.checked]).toEqual(['checkbox', true]);
    expect(f.el.querySelector('#d-only_main_content-hint').textContent).toMatch(/^On: the Markdown keeps only the page's main content.*Default: on\.$/);
    expect(f.el.querySelector('#d-said option').textContent).toBe('Default (on)');
    expect(f.el.querySelector('#d-unknown option').textContent).toBe('Default (the service decides)');
    expect(f.get()).toEqual({});
  });

  it('rewrites the service\'s jargon: field maps, baseline family, RE2, cached fetched_at', () => {
    const f = sf.schemaForm({ type: 'object', properties: {
      fields: { type: 'object', description: 'Field name -> { selector, attr?, all? }', additionalProperties: { type: 'object', properties: { selector: { type: 'string' }, all: { type: 'boolean', default: false, description: 'Every match, as a list; off: the first match only' } } } },
      tag: { type: 'string', description: 'Baseline family: pages are compared with the last snapshot of the same URL under the same tag (default "default")' },
      ignore_patterns: { type: 'array', items: { type: 'string' }, description: 'RE2 regular expressions whose matches are removed from the text before it is compared' },
      max_age: { type: 'integer', description: "ms (default 0): the answer may come from this tenant's own earlier fetch of the same URL with the same options, no older than this; it then says cached: true with its fetched_at. Never for requests with actions or secrets" },
    } }, { idPrefix: 'j' });
    const text = f.el.textContent;
    for (const jargon of ['Field name ->', 'Baseline family', 'RE2', 'cached: true', 'fetched_at']) expect(text).not.toContain(jargon);
    expect(text).toContain('give each a name and the CSS selector');
  });

  it('says what a site crawl covers under its start URL', () => {
    expect(scope.sectionOf('https://example.com/site/')).toBe('/site/**');
    expect(scope.sectionOf('https://example.com/')).toBeNull();
    expect(scope.crawlScopeText('https://example.com/site/page', [])).toMatch(/stays under \/site\/\*\*/);
    expect(scope.crawlScopeText('https://example.com/', [])).toMatch(/root/);
    expect(scope.crawlScopeText('https://example.com/site/', ['/**'])).toMatch(/match Include \(\/\*\*\)/);
  });
});
