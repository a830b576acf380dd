import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { secretSpellings } from '../../../functions/core/scrapers/secret-redactor.js';

/**
 * Issue 19 finding 2, from outside: a runbook fills a secret into a GET form (real Chromium), so
 * the browser puts the form-encoded secret in the URL and the page echoes it back in other
 * spellings. No spelling may reach the run record, its items, its raw log (`final_url`
 * included), its exports or its webhook.
 */
const SECRET = "p@ss (word)! it's~ñ";
let svc: TestService;
let site: Server;
let base = '';
const webhookBodies: string[] = [];

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

beforeAll(async () => {
  site = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    if (u.pathname === '/robots.txt') return res.writeHead(404).end();
    if (u.pathname === '/hook') {
      let b = '';
      req.on('data', (c) => (b += c)).on('end', () => {
        webhookBodies.push(b);
        res.writeHead(204).end();
      });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    if (u.pathname === '/search') return res.end(page('Search', '<form id="f" action="/results" method="GET"><input id="q" name="q"><button id="go" type="submit">Go</button></form>'));
    // The result page echoes what was typed, in the spellings a real site might use.
    const q = u.searchParams.get('q') ?? '';
    const raw = u.search.slice(3);
    return res.end(page(`Results for ${q}`, `<p id="echo">${q}</p><p id="raw">${raw}</p><p id="lower">${raw.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}</p><p id="b64">${Buffer.from(q).toString('base64')}</p><a id="self" href="${u.pathname}${u.search}">again</a>`));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${port}` });
  expect((await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', json: { mode: 'allowlist', domains: ['127.0.0.1'] } })).status).toBe(200);
  expect((await svc.call('/dashboard/api/secrets/site_pw', { method: 'PUT', json: { value: SECRET, domains: ['127.0.0.1'] } })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await svc?.destroy();
  await new Promise((r) => site?.close(r));
});

async function waitFor(runId: string) {
  for (let i = 0; i < 300; i++) {
    const r = await svc.call(`/v1/runs/${runId}`);
    if (['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'].includes(r.body.status)) return r.body;
    await new Promise((res) => setTimeout(res, 200));
  }
  throw new Error('run did not finish');
}

describe('a secret filled into a GET form', () => {
  it('never leaves the run in any spelling', async () => {
    const rb = await svc.call('/v1/runbooks', {
      method: 'POST',
      json: {
        name: 'search with a secret',
        published: true,
        steps: [
          { action: 'goto', url: `${base}/search` },
          { action: 'fill', selector: '#q', value: { secret: 'site_pw' } },
          { action: 'click', selector: '#go', navigation: true },
          { action: 'extract', fields: { title: { selector: 'title' }, echo: { selector: '#echo' }, raw: { selector: '#raw' }, lower: { selector: '#lower' }, b64: { selector: '#b64' }, href: { selector: '#self', attr: 'href' } } },
        ],
      },
    });
    expect(rb.status).toBe(201);
    const started = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: rb.body.id, input: {}, webhook_url: `${base}/hook` } });
    expect(started.status).toBe(201);
    const run = await waitFor(started.body.id);
    expect(run.status, JSON.stringify(run.error)).toBe('succeeded');

    const log = await svc.call(`/v1/runs/${run.id}/log`);
    const results = await svc.call(`/v1/runs/${run.id}/results`);
    const csv = await svc.call(`/v1/runs/${run.id}/results?format=csv`);
    const ndjson = await svc.call(`/v1/runs/${run.id}/results?format=ndjson`);
    const record = await svc.call(`/v1/runs/${run.id}`);
    // The run really went through the form: the browser's URL had the form-encoded secret in it.
    expect(log.body.data.some((e: { final_url?: string }) => e.final_url?.includes('/results?q='))).toBe(true);
    expect(results.body.data[0].url).toContain('/results?q=');
    expect(results.body.data[0].data.echo).toBe('[secret]');

    for (let i = 0; i < 50 && webhookBodies.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    const everything = [log.text, results.text, csv.text, ndjson.text, record.text, ...webhookBodies].join('\n');
    const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
    for (const spelling of [...secretSpellings(SECRET), ...secretSpellings(SECRET).map(lowerHex), new URLSearchParams({ q: SECRET }).toString().slice(2)]) {
      expect(everything, `spelling ${spelling}`).not.toContain(spelling);
    }
  }, 120_000);
});
