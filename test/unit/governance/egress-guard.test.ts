import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../functions/core/errors.js';
import { EgressGuard, hostPortKey } from '../../../functions/core/governance/egress-guard.js';
import { guardedConnector } from '../../../functions/core/governance/guarded-connector.js';

// checkUrl/checkHost never open a socket, so resolvers here may return any address as data.
const DNS: Record<string, string[]> = {
  'public.test': ['93.184.216.34'],
  'dual.test': ['2606:2800:220:1:248:1893:25c8:1946', '93.184.216.34'],
  'private.test': ['10.0.0.5'],
  'mixed.test': ['93.184.216.34', '192.168.0.10'],
  'meta.test': ['169.254.169.254'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'ula.test': ['fd00::1'],
  'localhost': ['127.0.0.1'],
  'empty.test': [],
};
const resolve = vi.fn(async (host: string) => {
  if (!(host in DNS)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return DNS[host];
});

function guard(allow: string[] = [], onBlocked = vi.fn()) {
  return { g: new EgressGuard({ allow, resolve, userAgent: 'GleanerBot/0.1', onBlocked }), onBlocked };
}

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe('target_forbidden');
  expect((err as AppError).status).toBe(400);
  return err as AppError;
}

describe('EgressGuard.checkUrl', () => {
  it('accepts a host whose every address is public, over http or https', async () => {
    const { g } = guard();
    await expect(g.checkUrl('https://public.test/a')).resolves.toBeInstanceOf(URL);
    await expect(g.checkUrl('http://dual.test/')).resolves.toBeInstanceOf(URL);
    await expect(g.checkUrl(new URL('http://8.8.8.8/'))).resolves.toBeInstanceOf(URL);
  });

  it.each([
    ['http://private.test/', /private\.test:80 resolves to 10\.0\.0\.5 which is not a public address \(range private\)/],
    ['https://mixed.test/', /resolves to 192\.168\.0\.10/],
    ['http://meta.test/latest/meta-data', /range linkLocal/],
    ['http://mapped.test/', /range ipv4Mapped/],
    ['http://ula.test/', /range uniqueLocal/],
    ['http://localhost:3000/', /range loopback/],
    ['http://127.0.0.1/', /Target 127\.0\.0\.1:80 is not a public address \(range loopback\)/],
    ['http://[::1]:8080/', /range loopback/],
    ['http://[::ffff:7f00:1]/', /range ipv4Mapped/],
    ['http://0.0.0.0:4100/', /range unspecified/],
    ['http://2130706433/', /unusual IPv4 spelling/],
    ['file:///etc/passwd', /scheme "file"/],
    ['http://a:b@public.test/', /credentials/],
  ])('refuses %s', async (url, why) => {
    const { g, onBlocked } = guard();
    expect((await refusal(g.checkUrl(url))).message).toMatch(why);
    expect(onBlocked).toHaveBeenCalledOnce();
    expect(onBlocked.mock.calls[0][0]).toBe(url);
  });

  it('exempts exact allow-listed host:port pairs only', async () => {
    const { g } = guard(['127.0.0.1:4100', 'localhost:4200', '[::1]:4300']);
    await expect(g.checkUrl('http://127.0.0.1:4100/x')).resolves.toBeInstanceOf(URL);
    await expect(g.checkUrl('https://127.0.0.1:4100/x')).resolves.toBeInstanceOf(URL);
    await expect(g.checkUrl('http://LOCALHOST:4200/')).resolves.toBeInstanceOf(URL);
    await expect(g.checkUrl('http://[0:0::1]:4300/')).resolves.toBeInstanceOf(URL);
    await refusal(g.checkUrl('http://127.0.0.1:4101/'));
    await refusal(g.checkUrl('http://localhost:4100/')); // pair is by name, not by resolved address
    await refusal(g.checkUrl('http://127.0.0.1/'));
    await refusal(g.checkUrl('http://[::1]:4100/'));
  });

  it('lets DNS failures through as ordinary (retryable) errors, not refusals', async () => {
    const { g, onBlocked } = guard();
    await expect(g.checkUrl('http://nowhere.test/')).rejects.toThrow(/ENOTFOUND/);
    await expect(g.checkUrl('http://empty.test/')).rejects.toThrow(/no addresses/);
    expect(onBlocked).not.toHaveBeenCalled();
  });

  it('rejects malformed allow entries at construction', () => {
    expect(() => guard(['127.0.0.1'])).toThrow(/not host:port/);
  });
});

describe('EgressGuard.checkHost / checkTarget', () => {
  it('returns the vetted address to dial, IPv4 first', async () => {
    const { g } = guard();
    await expect(g.checkHost('dual.test', 443)).resolves.toBe('93.184.216.34');
    await expect(g.checkTarget('https://dual.test/')).resolves.toMatchObject({ address: '93.184.216.34' });
  });

  it('refuses and reports under the given label', async () => {
    const { g, onBlocked } = guard();
    await refusal(g.checkHost('private.test', 443, 'private.test:443'));
    expect(onBlocked).toHaveBeenCalledWith('private.test:443', expect.stringMatching(/range private/));
  });
});

describe('guardedConnector', () => {
  it('hands the refusal to undici and never dials when the check fails', async () => {
    const checker = { checkHost: vi.fn(async () => Promise.reject(new Error('refused'))) };
    const connect = guardedConnector(checker, { timeout: 1000 });
    const result = await new Promise<[Error | null, unknown]>((done) =>
      connect({ hostname: 'rebind.test', host: 'rebind.test:8080', protocol: 'http:', port: '8080' }, (err, sock) => done([err, sock])),
    );
    expect(result[0]?.message).toBe('refused');
    expect(result[1]).toBeNull();
    expect(checker.checkHost).toHaveBeenCalledWith('rebind.test', 8080, 'http://rebind.test:8080');
  });

  it('uses the scheme default port when undici passes none', async () => {
    const checker = { checkHost: vi.fn(async () => Promise.reject(new Error('no'))) };
    const connect = guardedConnector(checker, { timeout: 1000 });
    await new Promise<void>((done) => connect({ hostname: 'x.test', host: 'x.test', protocol: 'https:', port: '' }, () => done()));
    expect(checker.checkHost).toHaveBeenCalledWith('x.test', 443, 'https://x.test');
  });
});

describe('hostPortKey', () => {
  it('canonicalises host spelling', () => {
    expect(hostPortKey('LocalHost', 80)).toBe('localhost:80');
    expect(hostPortKey('::1', '4100')).toBe('[::1]:4100');
    expect(hostPortKey('[0:0::1]', 4100)).toBe('[::1]:4100');
  });
});
