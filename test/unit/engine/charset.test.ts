import { describe, expect, it } from 'vitest';
import { decodeBody, detectCharset } from '../../../functions/core/engine/fetch-http.js';

// The http engine's charset: the header, then <meta>, and UTF-8 bytes behind a stale one-byte label.
const page = (meta: string, text: string, encoding: BufferEncoding) => Buffer.from(`<!doctype html><html><head>${meta}<title>t</title></head><body><p>${text}</p></body></html>`, encoding);

describe('detectCharset', () => {
  it('takes the header, then the meta, then UTF-8', () => {
    expect(detectCharset('text/html; charset=Shift_JIS', page('', 'x', 'utf8'))).toBe('shift_jis');
    expect(detectCharset('text/html', page('<meta charset="koi8-r">', 'x', 'utf8'))).toBe('koi8-r');
    expect(detectCharset('text/html', page('<meta http-equiv="Content-Type" content="text/html; charset=windows-1251">', 'x', 'utf8'))).toBe('windows-1251');
    expect(detectCharset(null, page('', 'x', 'utf8'))).toBe('utf-8');
  });

  it('reads a page saved as UTF-8 under a stale Latin-1 label as UTF-8; real Latin-1 bytes stay Latin-1', () => {
    const saved = page('<meta charset="iso-8859-1">', 'Café crème — “quoted”', 'utf8');
    expect(detectCharset('text/html', saved)).toBe('utf-8');
    expect(decodeBody(saved, detectCharset('text/html', saved))).toContain('Café crème — “quoted”');
    expect(detectCharset('text/html; charset=windows-1252', saved)).toBe('utf-8');
    const latin = page('<meta charset="iso-8859-1">', 'Café crème', 'latin1');
    expect(detectCharset('text/html', latin)).toBe('iso-8859-1');
    expect(decodeBody(latin, detectCharset('text/html', latin))).toContain('Café crème');
    // Pure ASCII under the label: nothing to tell, the label stands.
    expect(detectCharset('text/html', page('<meta charset="iso-8859-1">', 'Cafe', 'utf8'))).toBe('iso-8859-1');
  });
});
