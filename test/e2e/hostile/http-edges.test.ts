import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';

// Findings 7 and 12 (issue 9): body limits enforced while streaming, 431 in the JSON error shape,
// `application/jsonx` is not JSON.
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.destroy();
});

const MB = 1024 * 1024;

/** A raw POST: headers only (declared length) or a chunked stream the server may cut off. */
function rawPost(path: string, opts: { declared?: number; stream?: number; headers?: Record<string, string> }) {
  return new Promise<{ status: number; body: string; sent: number }>((resolve, reject) => {
    let sent = 0;
    const req = request(`${svc.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(opts.declared !== undefined ? { 'content-length': String(opts.declared) } : {}), ...opts.headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body, sent });
        req.destroy();
      });
    });
    req.on('error', (e) => (sent > 0 ? undefined : reject(e)));
    if (opts.stream) {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (sent < opts.stream! && !req.destroyed) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        if (!req.destroyed) req.end();
      };
      pump();
    } else if (opts.declared === undefined) req.end();
    else req.flushHeaders();
  });
}

describe('request bodies are limited while streaming', () => {
  it('a declared Content-Length over 1 MB is refused before the body is sent', async () => {
    const r = await rawPost('/dashboard/api/session', { declared: 200 * MB });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'payload_too_large', message: expect.any(String), request_id: expect.stringMatching(/^req_/) });
  });

  it('a chunked body is cut off soon after 1 MB, not read to the end', async () => {
    const r = await rawPost('/v1/runs', { stream: 200 * MB, headers: { authorization: `Bearer ${svc.key}` } });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'payload_too_large', request_id: expect.any(String) });
    expect(r.sent).toBeLessThan(100 * MB);
    expect((await svc.call('/v1')).status).toBe(200);
  });
});

describe('edges of the HTTP layer answer in the API error shape', () => {
  it('headers over 16 KB get 431 as JSON', async () => {
    const r = await fetch(`${svc.url}/v1`, { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(r.status).toBe(431);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await r.json()).toMatchObject({ code: 'headers_too_large', message: expect.any(String), request_id: expect.any(String) });
  });

  it.each(['application/jsonx', 'application/json-patch', 'text/json', 'application/x+jsonp'])('Content-Type %s is not JSON: 415', async (ct) => {
    const r = await svc.call('/v1/runs', { method: 'POST', body: JSON.stringify({ scraper: 'page-content', input: { url: 'https://example.com/' } }), headers: { 'content-type': ct } });
    expect(r.status).toBe(415);
    expect(r.body).toMatchObject({ code: 'unsupported_media_type', request_id: expect.any(String) });
  });

  it('application/json with a charset and vendor +json types are JSON', async () => {
    for (const ct of ['application/json; charset=utf-8', 'application/merge-patch+json']) {
      const r = await svc.call('/dashboard/api/settings/target-policy', { method: 'PUT', body: JSON.stringify({ mode: 'open', domains: [] }), headers: { 'content-type': ct } });
      expect(r.status).toBe(200);
    }
  });
});
