import { describe, expect, it } from 'vitest';
import { cleanUrl, lineKey } from '../../../functions/core/changes/normalize-text.js';

describe('cleanUrl', () => {
  it.each([
    ['https://a.example/p?utm_source=x&utm_campaign=y&id=4', 'https://a.example/p?id=4'],
    ['https://a.example/p?fbclid=IwAR0&gclid=Cj0&msclkid=9f&q=lamp', 'https://a.example/p?q=lamp'],
    ['https://a.example/p;jsessionid=A1B2C3?x=1', 'https://a.example/p?x=1'],
    ['https://a.example/p?PHPSESSID=abc123&sid=77&page=2', 'https://a.example/p?page=2'],
    ['https://cdn.example/app.css?v=1700000000', 'https://cdn.example/app.css'],
    ['https://cdn.example/i.png?cb=8f3a9c21d4&_=1732780000000&ts=99', 'https://cdn.example/i.png'],
    ['https://a.example/p?b=2&a=1#top', 'https://a.example/p?a=1&b=2#top'],
  ])('%s -> %s', (raw, clean) => expect(cleanUrl(raw)).toBe(clean));

  it('keeps a v= parameter whose value is a word (a real variant, not a cache buster)', () => {
    expect(cleanUrl('https://a.example/shoe?v=red')).toBe('https://a.example/shoe?v=red');
  });
});

describe('lineKey', () => {
  const same = (a: string, b: string) => expect(lineKey(a)).toBe(lineKey(b));
  const differ = (a: string, b: string) => expect(lineKey(a)).not.toBe(lineKey(b));

  it('treats relative times in their many forms as noise', () => {
    same('Updated 5 minutes ago', 'Updated 3 hours ago');
    same('Posted just now by Ana', 'Posted yesterday by Ana');
    same('Last seen 2d ago', 'Last seen an hour ago');
    same('Comment · about 3 hours ago', 'Comment · a few seconds ago');
    same('Edited 1 year, 2 months ago', 'Edited 3 days ago');
  });

  it('treats render-time stamps and clock times with seconds as noise', () => {
    same('Generated 2026-11-27T14:03:22.120Z', 'Generated 2026-11-28T09:41:07.004Z');
    same('Server time: 14:03:22', 'Server time: 09:41:07');
    same('Last updated: Nov 27, 2026 2:15 PM', 'Last updated: Nov 28, 2026 9:01 AM');
    same('Page rendered in 0.231 s', 'Page rendered in 0.187 s');
    same('Request ID: 8f3a9c21d4e5b6a7c8d9', 'Request ID: 00ff11ee22dd33cc44bb');
    same('© 2024 Example Shop', '© 2026 Example Shop');
    same('Current date: Saturday, November 28, 2026', 'Current date: Sunday, November 29, 2026');
    same('1,234 views · 12 people are viewing this', '1,240 views · 9 people are viewing this');
  });

  it('keeps real edits of prices, counts, dates and words', () => {
    differ('Price: $49.99', 'Price: $44.99');
    differ('| Large | 52 cm | 1.9 kg |', '| Large | 52 cm | 2.1 kg |');
    differ('The launch is on 12 March 2027.', 'The launch is on 14 March 2027.');
    differ('Only 3 left in stock', 'Only 2 left in stock');
    differ('The lamp is walnut.', 'The lamp is oak.');
    differ('Price: $12 (viewed by many)', 'Price: $13 (viewed by many)');
  });

  it('squeezes whitespace and drops lines of markdown punctuation only', () => {
    same('a   b\u00a0 c', ' a b c ');
    expect(lineKey('|---|---|')).toBe('');
    expect(lineKey('   ')).toBe('');
  });

  it('cleans link and image targets in markdown', () => {
    same('[Manual](https://s.example/m.pdf?utm_source=a)', '[Manual](https://s.example/m.pdf?fbclid=zz)');
    differ('[Manual](https://s.example/m.pdf)', '[Manual](https://s.example/m2.pdf)');
  });
});
