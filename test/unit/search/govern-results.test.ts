import { describe, expect, it } from 'vitest';
import { governResults, type ResultChecks } from '../../../functions/core/search/govern-results.js';
import { targetForbidden } from '../../../functions/core/errors.js';

const r = (url: string, title = url) => ({ url, title, snippet: '', published_at: null });

/** Checks as data: egress refuses 10.x, robots refuses /private; every call is counted. */
function checks(policy: ResultChecks['policy'] = { mode: 'open', domains: [] }) {
  const egressCalls: string[] = [];
  const robotsCalls: string[] = [];
  const c: ResultChecks = {
    policy,
    egress: async (u) => {
      egressCalls.push(u.href);
      if (u.hostname.startsWith('10.')) throw targetForbidden(`${u.hostname} is a private address`);
    },
    robots: async (u) => {
      robotsCalls.push(u);
      return new URL(u).pathname.startsWith('/private') ? { allowed: false, reason: 'disallowed by robots.txt for GleanerBot' } : { allowed: true, reason: 'allowed' };
    },
  };
  return { c, egressCalls, robotsCalls };
}

describe('governResults', () => {
  it('keeps the provider order, drops duplicates by normalised URL and ranks 1..n', async () => {
    const { c } = checks();
    const out = await governResults([r('https://a.example/x'), r('https://b.example/'), r('https://a.example/x?utm_source=feed#top', 'dup'), r('https://c.example/')], c, { limit: 10 });
    expect(out.map((o) => [o.rank, o.url])).toEqual([[1, 'https://a.example/x'], [2, 'https://b.example/'], [3, 'https://c.example/']]);
    expect(out.every((o) => o.policy.decision === 'allowed')).toBe(true);
  });

  it('denies by target policy before the egress guard or robots.txt are asked', async () => {
    const { c, egressCalls, robotsCalls } = checks({ mode: 'allowlist', domains: ['good.example'] });
    const out = await governResults([r('https://good.example/a'), r('https://evil.example/b')], c, { limit: 10 });
    expect(out[1]!.policy).toEqual({ decision: 'denied', reason: expect.stringMatching(/^target_not_authorized: .*evil\.example/) });
    expect(egressCalls).toEqual(['https://good.example/a']);
    expect(robotsCalls).toEqual(['https://good.example/a']);
  });

  it('denies what the egress guard refuses and what robots.txt disallows, with the reason', async () => {
    const { c, robotsCalls } = checks();
    const out = await governResults([r('http://10.0.0.5/admin'), r('https://ok.example/private/1'), r('https://ok.example/public')], c, { limit: 10 });
    expect(out.map((o) => o.policy.decision)).toEqual(['denied', 'denied', 'allowed']);
    expect(out[0]!.policy.reason).toMatch(/^target_forbidden: 10\.0\.0\.5 is a private address/);
    expect(out[1]!.policy.reason).toMatch(/^robots_disallowed: /);
    expect(robotsCalls).not.toContain('http://10.0.0.5/admin');
  });

  it('applies include_domains and exclude_domains (subdomains included) and the limit after de-duplication', async () => {
    const { c } = checks();
    const list = [r('https://news.a.example/1'), r('https://b.example/1'), r('https://a.example/2'), r('https://a.example/2'), r('https://a.example/3'), r('https://x.a.example/4')];
    const inc = await governResults(list, c, { include_domains: ['a.example'], exclude_domains: ['x.a.example'], limit: 3 });
    expect(inc.map((o) => o.url)).toEqual(['https://news.a.example/1', 'https://a.example/2', 'https://a.example/3']);
  });

  it('asks robots.txt nothing when nothing will be fetched', async () => {
    const { c, robotsCalls } = checks();
    const out = await governResults([r('https://ok.example/private/1')], { ...c, robots: undefined }, { limit: 10 });
    expect(out[0]!.policy.decision).toBe('allowed');
    expect(robotsCalls).toEqual([]);
  });

  it('a check that fails unexpectedly denies that result only', async () => {
    const { c } = checks();
    const out = await governResults([r('https://a.example/'), r('https://b.example/')], { ...c, robots: async (u) => { if (u.includes('a.example')) throw new Error('boom'); return { allowed: true, reason: 'ok' }; } }, { limit: 10 });
    expect(out.map((o) => o.policy.decision)).toEqual(['denied', 'allowed']);
  });
});
