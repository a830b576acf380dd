import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRunbook, runbookStepsSchema, type RunbookStepInput } from '../../../functions/core/scrapers/runbook.js';
import { runbookScraper } from '../../../functions/core/scrapers/runbook-scraper.js';
import type { TargetPolicy } from '../../../functions/core/governance/target-policy.js';
import { startCanary, startFixtureSite, type Canary, type FixtureSite } from '../../fixtures/site/server.js';
import { collectingContext, makeHarness, type Harness } from './harness.js';

const PASSWORD = 'correct-horse-battery';
let site: FixtureSite;
let canary: Canary;
let h: Harness;

beforeAll(async () => {
  canary = await startCanary();
  site = await startFixtureSite({ canaryUrl: canary.url, password: PASSWORD });
  h = makeHarness({ fixturePort: site.port });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
  await canary?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;
const allowlisted: TargetPolicy = { mode: 'open', domains: ['127.0.0.1'] };
const openOnly: TargetPolicy = { mode: 'open', domains: [] };
const secrets = { shop_password: PASSWORD };
const resolveSecret = async (name: string) => {
  const v = (secrets as Record<string, string>)[name];
  if (!v) throw new Error(`no secret ${name}`);
  return { value: v, domains: ['127.0.0.1'] };
};

const loginSteps = (): RunbookStepInput[] => [
  { action: 'goto', url: { input: 'start' } },
  { action: 'fill', selector: '#username', value: { input: 'user' } },
  { action: 'fill', selector: '#password', value: { secret: 'shop_password' } },
  { action: 'click', selector: '#submit' },
  { action: 'wait_for', selector: '.account' },
  { action: 'extract', item_selector: 'li.order', fields: { id: { selector: '.order-id' }, total: { selector: '.total' } } },
  { action: 'screenshot', name: 'account' },
];

describe('runbook executor', () => {
  it('logs in with an input and a secret on an allowlisted host, clicks, extracts', async () => {
    // Prepare
    const steps = runbookStepsSchema.parse(loginSteps());
    // Act
    const res = await executeRunbook(steps, {
      engine: h.engine,
      policy: allowlisted,
      input: { start: url('/login'), user: 'ada' },
      resolveSecret,
    });
    // Assess
    expect(res.error).toBeNull();
    expect(res.status).toBe('succeeded');
    expect(res.items.map((i) => i.data)).toEqual([
      { id: 'A-1', total: '10.00' },
      { id: 'A-2', total: '22.50' },
    ]);
    expect(res.items[0]).toMatchObject({ url: url('/account'), status_code: 200 });
    expect(res.log.map((l) => [l.action, l.ok])).toEqual([
      ['goto', true], ['fill', true], ['fill', true], ['click', true], ['wait_for', true], ['extract', true], ['screenshot', true],
    ]);
    expect(res.log[2].detail).toBe('filled #password with secret:shop_password');
    expect(res.log[3].detail).toBe(`navigated to ${url('/account')}`);
    expect(JSON.stringify(res.log)).not.toContain(PASSWORD);
    expect(res.screenshots[0]).toMatchObject({ name: 'account', url: url('/account') });
    expect(site.hits('/account')).toBeGreaterThanOrEqual(1);
  });

  it('refuses to fill a secret on a host that is not allowlisted, before typing anything', async () => {
    const postsBefore = site.hits('/login');
    const res = await executeRunbook(runbookStepsSchema.parse(loginSteps()), {
      engine: h.engine,
      policy: openOnly,
      input: { start: url('/login'), user: 'ada' },
      resolveSecret: async () => {
        throw new Error('the resolver must not be called');
      },
    });
    expect(res.status).toBe('failed');
    expect(res.error?.code).toBe('target_not_authorized');
    expect(res.log.map((l) => l.ok)).toEqual([true, true, false]);
    expect(site.hits('/login') - postsBefore).toBe(1); // the GET of goto; no POST happened
    expect(res.items).toEqual([]);
  });

  it('fills a secret only on the domains it is bound to, even on an allowlisted host', async () => {
    const postsBefore = site.hits('/login');
    const res = await executeRunbook(runbookStepsSchema.parse(loginSteps()), {
      engine: h.engine,
      policy: allowlisted,
      input: { start: url('/login'), user: 'ada' },
      resolveSecret: async () => ({ value: PASSWORD, domains: ['shop.example.com'] }),
    });
    expect(res).toMatchObject({ status: 'failed', error: { code: 'target_not_authorized' } });
    expect(res.error?.message).toMatch(/bound to shop\.example\.com/);
    expect(res.log.map((l) => l.ok)).toEqual([true, true, false]);
    expect(site.hits('/login') - postsBefore).toBe(1); // the GET of goto; nothing submitted
  });

  it.each([
    ['screenshot', { action: 'screenshot', name: 'leak' }],
    ['extract', { action: 'extract', fields: { pw: { selector: '#password', attr: 'value' } } }],
  ] as const)('refuses a %s on the page a secret was filled on, and never returns the value', async (_name, step) => {
    const res = await executeRunbook(
      runbookStepsSchema.parse([
        { action: 'goto', url: url('/login') },
        { action: 'fill', selector: '#password', value: { secret: 'shop_password' } },
        step,
      ]),
      { engine: h.engine, policy: allowlisted, input: {}, resolveSecret },
    );
    expect(res).toMatchObject({ status: 'failed', error: { code: 'secret_on_page' } });
    expect(res.screenshots).toEqual([]);
    expect(res.items).toEqual([]);
    expect(JSON.stringify(res)).not.toContain(PASSWORD);
  });

  it('paginates by repeating the last extract', async () => {
    const res = await executeRunbook(
      runbookStepsSchema.parse([
        { action: 'goto', url: url('/products?page=1') },
        { action: 'scroll', times: 2, delay_ms: 10 },
        { action: 'extract', item_selector: 'li.product', fields: { name: { selector: '.name' } } },
        { action: 'paginate', next: 'a.next', max_pages: 10 },
      ]),
      { engine: h.engine, policy: openOnly, input: {}, resolveSecret },
    );
    expect(res.status).toBe('succeeded');
    expect(res.items.map((i) => i.data.name)).toEqual(Array.from({ length: 12 }, (_, i) => `Product ${i + 1}`));
    expect(res.log.at(-1)).toMatchObject({ action: 'paginate', ok: true, detail: '3 page(s), 8 more item(s)' });
    expect(res.pages_done).toBe(3);
  });

  it('fails a goto to a forbidden target without touching it', async () => {
    const res = await executeRunbook(
      runbookStepsSchema.parse([{ action: 'goto', url: url('/redirect-canary') }]),
      { engine: h.engine, policy: openOnly, input: {}, resolveSecret },
    );
    expect(res.status).toBe('failed');
    expect(res.error?.code).toBe('target_forbidden');
    expect(canary.connections()).toBe(0);
  });

  it('stops as blocked at a challenge and does not retry it', async () => {
    const before = site.hits('/challenge');
    const res = await executeRunbook(
      runbookStepsSchema.parse([
        { action: 'goto', url: url('/challenge') },
        { action: 'extract', fields: { t: { selector: 'title' } } },
      ]),
      { engine: h.engine, policy: openOnly, input: {}, resolveSecret },
    );
    expect(res.status).toBe('blocked');
    expect(res.error?.code).toBe('challenge');
    expect(res.log).toHaveLength(1);
    expect(site.hits('/challenge') - before).toBe(1);
  });

  it('does not navigate to robots-disallowed pages', async () => {
    const res = await executeRunbook(runbookStepsSchema.parse([{ action: 'goto', url: url('/private/x') }]), {
      engine: h.engine,
      policy: openOnly,
      input: {},
      resolveSecret,
    });
    expect(res).toMatchObject({ status: 'failed', error: { code: 'robots_disallowed' } });
    expect(site.hits('/private/x')).toBe(0);
  });

  it('runs as a scraper when published', async () => {
    const scraper = runbookScraper(
      {
        id: 'rbk_test',
        name: 'Orders',
        description: 'Log in and list orders',
        input_schema: { type: 'object', properties: { start: { type: 'string' }, user: { type: 'string' } } },
        steps: runbookStepsSchema.parse(loginSteps()),
      },
      { policy: allowlisted, resolveSecret },
    );
    expect(scraper.inputSchema.safeParse({ start: url('/login') }).success).toBe(false); // user missing
    const c = collectingContext(h.engine);
    const out = await scraper.run(scraper.inputSchema.parse({ start: url('/login'), user: 'bob' }), c.ctx);
    expect(out).toMatchObject({ items: 2, stopped: 'done' });
    expect(c.items.map((i) => i.data.id)).toEqual(['A-1', 'A-2']);
  });
});
