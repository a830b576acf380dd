import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestService, type TestService } from '../../support/local-service.js';

// A page that reports how it was rendered; the server records the request headers.
let seen: Array<Record<string, string | string[] | undefined>> = [];
let page: Server;
let port: number;
let svc: TestService;
const HTML = `<!doctype html><html><head><meta name="viewport" content="width=device-width"><title>probe</title></head><body><main id="out">pending</main><script>
document.getElementById('out').textContent = [innerWidth, Intl.DateTimeFormat().resolvedOptions().timeZone, matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'].join('|');
</script></body></html>`;

beforeAll(async () => {
  page = createServer((req, res) => {
    seen.push(req.headers);
    if (req.url === '/robots.txt') return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(HTML);
  });
  await new Promise<void>((r) => page.listen(0, '127.0.0.1', r));
  port = (page.address() as AddressInfo).port;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${port}` });
});
afterAll(async () => {
  await svc?.destroy();
  await new Promise((r) => page.close(r));
});

describe('browser profiles (console antidetect)', () => {
  it('validates, stores and lists profiles', async () => {
    const bad = await svc.call('/dashboard/api/antidetect/profiles', { method: 'POST', json: { name: 'x', timezone: 'Mars/Olympus' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].path).toBe('body.timezone');
    const ua = await svc.call('/dashboard/api/antidetect/profiles', { method: 'POST', json: { name: 'x', user_agent: 'Mozilla/5.0' } });
    expect(ua.status).toBe(400); // no identity spoofing: there is no such field
    const ok = await svc.call('/dashboard/api/antidetect/profiles', { method: 'POST', json: { name: 'Berlin phone', viewport: { width: 390, height: 844 }, is_mobile: true, device_scale_factor: 2, locale: 'de-DE', timezone: 'Europe/Berlin', color_scheme: 'dark' } });
    expect(ok.status).toBe(201);
    expect((await svc.call('/dashboard/api/antidetect/profiles')).body.data[0].profile_id).toBe(ok.body.profile_id);
  });

  it('renders browser pages with the profile while the User-Agent still identifies Gleaner', async () => {
    const prof = (await svc.call('/dashboard/api/antidetect/profiles')).body.data[0];
    seen = [];
    const r = await svc.call('/v1/scrape', { method: 'POST', json: { url: `http://127.0.0.1:${port}/`, engine: 'browser', formats: ['text'], browser_profile: prof.profile_id } });
    expect(r.status).toBe(200);
    expect(r.body.text).toContain('390|Europe/Berlin|dark');
    const doc = seen.find((h) => String(h.accept ?? '').includes('text/html'))!;
    expect(doc['accept-language']).toMatch(/^de-DE/);
    expect(doc['user-agent']).toMatch(/GleanerBot/);
    const unknown = await svc.call('/v1/scrape', { method: 'POST', json: { url: `http://127.0.0.1:${port}/`, browser_profile: 'prf_00000000000000000000000000' } });
    expect(unknown.status).toBe(400);
    const run = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'page-content', input: { url: `http://127.0.0.1:${port}/`, engine: 'browser' }, browser_profile: prof.profile_id } });
    expect(run.status).toBe(201);
    const done = await svc.call(`/v1/runs/${run.body.id}?wait=20`);
    expect(done.body).toMatchObject({ status: 'succeeded', browser_profile: prof.profile_id });
    const items = await svc.call(`/v1/runs/${run.body.id}/results`);
    expect(items.body.data[0].data.text).toContain('390|Europe/Berlin|dark');
  });
});
