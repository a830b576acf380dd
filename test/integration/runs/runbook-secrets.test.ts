import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';

/** Secrets are bound to domains when saved, and using them in runbooks needs the secrets:use scope. */
let svc: TestService;
let limited = '';
let withSecrets = '';

const fillSecret = { action: 'fill', selector: '#password', value: { secret: 'shop_password' } };
const body = (steps: unknown[], published = false) => ({ name: 'login', steps: [{ action: 'goto', url: 'https://shop.example.com/login' }, ...steps], published });

beforeAll(async () => {
  svc = await startTestService();
  const key = async (scopes: string[]) => (await svc.call('/dashboard/api/keys', { method: 'POST', json: { scopes } })).body.api_key as string;
  limited = await key(['runbooks:read', 'runbooks:write', 'runs:read', 'runs:write']);
  withSecrets = await key(['runbooks:read', 'runbooks:write', 'runs:read', 'runs:write', 'secrets:use']);
});
afterAll(async () => {
  await svc?.destroy();
});

describe('tenant secrets in runbooks', () => {
  it('binds a secret to domains when saved; a secret without valid domains is refused', async () => {
    const none = await svc.call('/dashboard/api/secrets/shop_password', { method: 'PUT', json: { value: 'pw-123456' } });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'invalid_request', message: expect.any(String) });
    const tld = await svc.call('/dashboard/api/secrets/shop_password', { method: 'PUT', json: { value: 'pw-123456', domains: ['com'] } });
    expect(tld.status).toBe(400);
    const ok = await svc.call('/dashboard/api/secrets/shop_password', { method: 'PUT', json: { value: 'pw-123456', domains: ['Shop.Example.com'] } });
    expect(ok.status).toBe(200);
    expect(ok.body.domains).toEqual(['shop.example.com']);
    const list = await svc.call('/dashboard/api/secrets');
    expect(list.body.data).toEqual([expect.objectContaining({ name: 'shop_password', domains: ['shop.example.com'] })]);
    expect(list.text).not.toContain('pw-123456');
  });

  it('needs secrets:use to create, change, test or run a runbook that fills a secret', async () => {
    // Prepare: a runbook with a secret fill, created by a key that may use secrets.
    const plain = await svc.call('/v1/runbooks', { method: 'POST', key: limited, json: body([]) });
    expect(plain.status).toBe(201);
    const before = (await svc.call('/v1/runbooks')).body.data.length;

    // Act + Assess: the runbooks scope alone is not enough.
    const create = await svc.call('/v1/runbooks', { method: 'POST', key: limited, json: body([fillSecret]) });
    expect(create.status).toBe(403);
    expect(create.body).toMatchObject({ code: 'forbidden', message: expect.stringContaining('secrets:use') });
    expect((await svc.call('/v1/runbooks')).body.data.length).toBe(before);
    const sneak = await svc.call(`/v1/runbooks/${plain.body.id}`, { method: 'PUT', key: limited, json: body([fillSecret], true) });
    expect(sneak.status).toBe(403);

    const rb = await svc.call('/v1/runbooks', { method: 'POST', key: withSecrets, json: body([fillSecret], true) });
    expect(rb.status).toBe(201);
    expect((await svc.call(`/v1/runbooks/${rb.body.id}/test`, { method: 'POST', key: limited, json: {} })).status).toBe(403);
    expect((await svc.call(`/v1/runbooks/${rb.body.id}`, { method: 'PUT', key: limited, json: body([], true) })).status).toBe(403);
    const run = await svc.call('/v1/runs', { method: 'POST', key: limited, json: { scraper_id: rb.body.id, input: {} } });
    expect(run.status).toBe(403);
    expect(run.body.message).toContain('secrets:use');
    expect((await svc.call('/v1/runs')).body.data).toEqual([]);
  });
});
