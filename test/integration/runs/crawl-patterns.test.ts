import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';

/**
 * A tenant's site-crawl include/exclude regex must not stall the process: patterns run on RE2
 * (linear time), and unsupported or too complex patterns are refused at submit.
 */

// Links a backtracking engine needs ~10 s each to reject with `(a+)+$` (2^30 paths).
const EVIL_LINKS = Array.from({ length: 12 }, (_, i) => `/${'a'.repeat(30)}!${i}`);

let svc: TestService;
let site: Server;
let base = '';
let holdRequested: () => void;
const holdSeen = new Promise<void>((r) => (holdRequested = r));
const held: ServerResponse[] = [];

beforeAll(async () => {
  site = createServer((req, res) => {
    if (req.url === '/') {
      res.setHeader('content-type', 'text/html');
      res.end(`<html><head><title>Start</title></head><body>
        ${EVIL_LINKS.map((l) => `<a href="${l}">x</a>`).join('\n')}
        <a href="/hold">hold</a></body></html>`);
    } else if (req.url === '/hold') {
      // Answered only when the test says so: the crawl is provably still running until then.
      held.push(res);
      holdRequested();
    } else {
      res.statusCode = 404;
      res.end('not here');
    }
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  const port = (site.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${port}` });
});

afterAll(async () => {
  for (const r of held) r.end();
  await svc?.destroy();
  await new Promise((r) => site?.close(r));
});

describe('site-crawl patterns', () => {
  it('keeps answering other requests while a crawl with a catastrophic regex runs', async () => {
    // Prepare: `(a+)+$` backtracks exponentially on `aaa…a!`; `/hold` keeps the crawl open.
    const c = await svc.call('/v1/runs', {
      method: 'POST',
      json: { scraper_id: 'site-crawl', input: { start_url: `${base}/`, engine: 'http', include: ['/(a+)+$/', '/hold'], max_depth: 1, concurrency: 1 } },
    });
    expect(c.status).toBe(201);

    // Act: the start page's links have been matched once /hold is requested; ask about the run.
    await holdSeen;
    const during = await svc.call(`/v1/runs/${c.body.id}`);
    const scrapers = await svc.call('/v1/scrapers');

    // Assess: both answered while the crawl was still waiting on /hold.
    expect(during.status).toBe(200);
    expect(during.body.status).toBe('running');
    expect(scrapers.status).toBe(200);
    for (const r of held.splice(0)) r.end('<html><title>held</title></html>');
    let run = during.body;
    while (!['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'].includes(run.status)) run = (await svc.call(`/v1/runs/${c.body.id}?wait=20`)).body;
    expect(run.status).toBe('succeeded');
    const items = (await svc.call(`/v1/runs/${c.body.id}/results`)).body.data.map((i: { url: string }) => new URL(i.url).pathname);
    // Only the start page and /hold: the `aaa…a!N` links do not match `(a+)+$` (they end in a digit).
    expect(items).toEqual(['/', '/hold']);
  });

  it.each([
    ['/(a)\\1/', /backreferences are not supported/],
    ['/(?=a)b/', /lookahead and lookbehind are not supported/],
    ['/(.*a){1000}/', /too complex/],
    ['/(unclosed/', /invalid regular expression/],
  ])('refuses the pattern %s at submit with 400 and a message', async (pattern, message) => {
    const before = (await svc.call('/v1/runs')).body.data.length;
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${base}/`, exclude: [pattern] } } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('invalid_request');
    expect(JSON.stringify(r.body)).toMatch(message);
    expect((await svc.call('/v1/runs')).body.data.length).toBe(before);
  });

  it('refuses a list of patterns that is too complex taken together', async () => {
    const r = await svc.call('/v1/runs', { method: 'POST', json: { scraper_id: 'site-crawl', input: { start_url: `${base}/`, include: Array(50).fill('/(.*a){30}/') } } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toMatch(/too complex/);
  });
});
