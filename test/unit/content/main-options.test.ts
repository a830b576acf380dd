import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage, type ContentParseOptions } from '../../../functions/core/engine/parse.js';
import { AppError } from '../../../functions/core/errors.js';

// Content options (API.md "Content options") as the parse stage applies them to `markdown`.
const PAGE = `<html><head><title>Options</title></head><body>
<nav class="menu"><a href="/home">Home link</a></nav>
<article><h1>Headline</h1>
<p>First paragraph of the story, long enough to be prose, with commas, and a <a href="/rel">relative link</a>.</p>
<p class="promo-box">Promo inside the story that a user wants gone.</p>
<p>Second paragraph of the story, also long enough to count, with more commas, words and sentences.</p>
<p>Third paragraph closes the story, with a final sentence that ends here.</p>
</article>
<aside id="side"><p>Sidebar note</p></aside>
<footer><p>Footer line</p></footer>
</body></html>`;
const URL_ = 'https://news.test/a/story';
const md = (content?: ContentParseOptions) => parsePage(load(PAGE), URL_, { content }).markdown;

describe('content options on markdown', () => {
  it('default: main content only, links absolute', () => {
    const out = md();
    expect(out).toContain('First paragraph of the story');
    expect(out).toContain('[relative link](https://news.test/rel)');
    for (const chrome of ['Home link', 'Sidebar note', 'Footer line']) expect(out).not.toContain(chrome);
  });

  it('only_main_content false: the whole body, navigation and footer included, scripts never', () => {
    const out = parsePage(load(PAGE.replace('</body>', '<script>var leak = 1;</script></body>')), URL_, { content: { onlyMainContent: false } }).markdown;
    for (const part of ['Home link', 'Headline', 'Sidebar note', 'Footer line']) expect(out).toContain(part);
    expect(out).not.toContain('leak');
  });

  it('exclude_tags removes elements first (from main content and from the whole body)', () => {
    expect(md({ excludeTags: ['.promo-box'] })).not.toContain('Promo inside');
    expect(md({ excludeTags: ['.promo-box'] })).toContain('Second paragraph');
    const whole = md({ onlyMainContent: false, excludeTags: ['nav', 'footer'] });
    expect(whole).not.toContain('Home link');
    expect(whole).not.toContain('Footer line');
    expect(whole).toContain('Sidebar note');
    expect(md({ excludeTags: ['body'] })).toBe('');
    expect(md({ onlyMainContent: false, excludeTags: ['html'] })).toBe('');
  });

  it('include_tags: only those elements, in document order, each once; exclusions still apply', () => {
    const out = md({ includeTags: ['footer', 'h1', 'article'], excludeTags: ['.promo-box'] });
    expect(out.indexOf('Headline')).toBeLessThan(out.indexOf('Footer line'));
    expect(out.match(/Headline/g)).toHaveLength(1);
    expect(out).not.toContain('Promo inside');
    expect(out).not.toContain('Home link');
    expect(md({ includeTags: ['#side'] })).toBe('Sidebar note');
    expect(md({ includeTags: ['.does-not-exist'] })).toBe('');
  });

  it('an invalid selector is a 400 invalid_input, not a crash', () => {
    for (const content of [{ includeTags: ['div[['] }, { excludeTags: ['p', ':::nope'] }]) {
      let err: unknown;
      try {
        md(content);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ status: 400, code: 'invalid_input' });
    }
  });

  it('text stays the whole page whatever the options say', () => {
    const p = parsePage(load(PAGE), URL_, { content: { includeTags: ['h1'] } });
    expect(p.markdown).toBe('# Headline');
    expect(p.text).toContain('Home link');
    expect(p.text).toContain('Footer line');
  });

  it('a page nested too deeply to walk is a 422, not a crash', () => {
    const depth = 20000;
    const html = `<html><body>${'<div>'.repeat(depth)}<p>deep</p>${'</div>'.repeat(depth)}</body></html>`;
    expect(() => parsePage(html, URL_)).toThrow(expect.objectContaining({ status: 422, code: 'document_too_complex' }));
  });
});
