import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { createUser } from '../../../functions/core/tenancy/users.js';
import { LOGIN_LIMITS } from '../../../functions/core/tenancy/login-throttle.js';

// Finding 6 (issue 9): console logins are throttled per account and per client (429 + Retry-After).
let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
  await createUser(svc.deps.table, svc.tenantId, 'victim@example.com', 'correct horse battery', new Date());
});
afterAll(async () => {
  await svc?.destroy();
});

const attempt = (email: string, password: string) =>
  svc.call('/dashboard/api/session', { method: 'POST', key: null, json: { email, password } });

describe('console login throttling', () => {
  it('locks an account after repeated wrong passwords, even for the right one, with 429 + Retry-After', async () => {
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) expect((await attempt('victim@example.com', `guess-${i}`)).status).toBe(401);
    const locked = await attempt('victim@example.com', 'correct horse battery');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(locked.body).toMatchObject({ code: 'rate_limited', message: expect.any(String), request_id: expect.any(String) });
    expect(locked.headers.get('set-cookie')).toBeNull();
  });

  it('throttles one client spraying many accounts; unknown emails are throttled like known ones', async () => {
    let status = 0;
    let n = 0;
    for (; n < LOGIN_LIMITS.perClient + 5 && status !== 429; n++) status = (await attempt(`user${n}@example.com`, 'password123')).status;
    expect(status).toBe(429);
    expect(n).toBeLessThanOrEqual(LOGIN_LIMITS.perClient + 1);
  });
});
