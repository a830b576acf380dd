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
