import { describe, expect, it } from 'vitest';
import { origin } from '../../../functions/http/pipeline/event.js';
import type { Event } from '../../../functions/http/pipeline/types.js';

const ev = (headers: Record<string, string>, domainName?: string) =>
  ({ headers, requestContext: { domainName, http: { method: 'GET', path: '/v1', sourceIp: '127.0.0.1' } } }) as unknown as Event;

// Finding 12 (issue 9): a client-supplied X-Forwarded-Host must not rewrite links in responses.
describe('origin for absolute links', () => {
  it('ignores X-Forwarded-Host and X-Forwarded-Proto without GLEANER_PUBLIC_URL', () => {
    expect(origin(ev({ 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http', host: 'api.gleaner.test' }, 'api.gleaner.test'))).toBe('https://api.gleaner.test');
    expect(origin(ev({ 'x-forwarded-host': 'evil.example', host: '127.0.0.1:8787' }, '127.0.0.1:8787'))).toBe('http://127.0.0.1:8787');
  });

  it('uses GLEANER_PUBLIC_URL when set', () => {
    expect(origin(ev({ 'x-forwarded-host': 'evil.example' }, 'x'), 'https://gleaner.example.com/')).toBe('https://gleaner.example.com');
  });

  it('never echoes a malformed host', () => {
    expect(origin(ev({}, 'evil.example/<script>'))).toBe('http://127.0.0.1');
  });
});
