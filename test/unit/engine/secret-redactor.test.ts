import { describe, expect, it } from 'vitest';
import { REDACTED, SecretRedactor } from '../../../functions/core/scrapers/secret-redactor.js';

describe('SecretRedactor', () => {
  it('masks a filled value as typed and URL-encoded, in text and nested data', () => {
    // Prepare
    const r = new SecretRedactor();
    r.add('p@ss word&1');
    // Act
    const url = r.text('https://s.example/account?pw=p%40ss+word%261&x=1');
    const data = r.deep({ title: 'Hello p@ss word&1', list: ['p%40ss%20word%261', 3], nested: { ok: true } });
    // Assess
    expect(url).toBe(`https://s.example/account?pw=${REDACTED}&x=1`);
    expect(data).toEqual({ title: `Hello ${REDACTED}`, list: [REDACTED, 3], nested: { ok: true } });
  });

  it('changes nothing before a secret was registered', () => {
    const r = new SecretRedactor();
    const v = { a: 'text' };
    expect(r.deep(v)).toBe(v);
    expect(r.active).toBe(false);
  });
});

// Issue 19 finding 2: a browser submitting a GET form encodes `!'()~` and spaces differently
// from encodeURIComponent, servers echo escapes in lower-case hex, and tokens travel as base64.
describe('SecretRedactor: every spelling of a secret', () => {
  const secret = "it's (my) pässword~ now!";
  const r = new SecretRedactor();
  r.add(secret);
  const component = encodeURIComponent(secret);
  const form = new URLSearchParams({ pw: secret }).toString().slice(3); // what a GET form submits
  const spellings: Record<string, string> = {
    raw: secret,
    encodeURIComponent: component,
    'form-encoded (URLSearchParams)': form,
    'form-encoded, lower-case hex': form.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'percent-encoded, lower-case hex': component.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    'percent-encoded, mixed-case hex': component.replace(/%C3/g, '%c3'),
    'form with %20 for spaces': form.replace(/\+/g, '%20'),
    encodeURI: encodeURI(secret),
    base64: Buffer.from(secret).toString('base64'),
    'base64 without padding': Buffer.from(secret).toString('base64').replace(/=+$/, ''),
    base64url: Buffer.from(secret).toString('base64url'),
  };
  it.each(Object.entries(spellings))('masks the %s spelling in a URL and in data', (_name, spelling) => {
    expect(form).toContain('%21'); // the fixture really exercises the form-only escapes
    const url = r.text(`https://s.example/search?q=${spelling}&x=1`);
    expect(url).toBe(`https://s.example/search?q=${REDACTED}&x=1`);
    expect(JSON.stringify(r.deep({ final_url: `/a?${spelling}`, list: [spelling] }))).not.toContain(spelling);
  });

  it('leaves other text alone', () => {
    expect(r.text('https://s.example/?q=password')).toBe('https://s.example/?q=password');
  });
});
