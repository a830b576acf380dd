/**
 * A streaming sitemap parser (sitemaps.org protocol): XML `urlset` and `sitemapindex` documents
 * and plain-text sitemaps (one URL per line), fed in chunks of any size.
 *
 * Deliberately not an XML parser: it looks only for `<url>` and `<sitemap>` elements and, inside
 * one, for `<loc>`, `<lastmod>` and a title (`news:title`, `video:title`, `image:title`). So it is
 * tolerant of malformed documents (an unclosed tag loses one entry, not the file), and it never
 * resolves a DTD or an entity beyond XML's five predefined ones and numeric references: an
 * XXE attempt (`<!ENTITY x SYSTEM "file:///…">` then `&x;`) stays literal text and yields no URL.
 * Memory is bounded: one element may hold at most {@link MAX_ELEMENT_CHARS}; a longer one is
 * dropped and counted as malformed.
 */

/** One entry: a page (`url`) or a child sitemap (`sitemap`, from a sitemap index). */
export interface SitemapEntry {
  kind: 'url' | 'sitemap';
  loc: string;
  lastmod: string | null;
  title: string | null;
}

/** Longest `<url>`/`<sitemap>` element kept (an image sitemap entry may list many images). */
export const MAX_ELEMENT_CHARS = 1024 * 1024;
/** Longest line of a text sitemap (the protocol caps URLs at 2,048 characters). */
const MAX_LINE_CHARS = 8192;

const ELEMENT = /<(url|sitemap)(?=[\s>/])/g;
const LOC = /<loc(?:\s[^>]*)?>([\s\S]*?)<\/loc\s*>/;
const LASTMOD = /<lastmod(?:\s[^>]*)?>([\s\S]*?)<\/lastmod\s*>/;
const TITLES = [/<news:title(?:\s[^>]*)?>([\s\S]*?)<\/news:title\s*>/, /<video:title(?:\s[^>]*)?>([\s\S]*?)<\/video:title\s*>/, /<image:title(?:\s[^>]*)?>([\s\S]*?)<\/image:title\s*>/];
const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/**
 * Text content of an element: CDATA kept as is, the predefined entities and numeric character
 * references decoded, any other entity left literally (never resolved), whitespace trimmed.
 */
export function xmlText(raw: string): string {
  const cdata = /^\s*<!\[CDATA\[([\s\S]*?)\]\]>\s*$/.exec(raw);
  if (cdata) return cdata[1]!.trim();
  return raw
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]+);/gi, (m, e: string) => {
      if (e[0] !== '#') return PREDEFINED[e] ?? m;
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : m;
    })
    .trim();
}

/** Counts of what the parser saw, for the run log. */
export interface ParseStats {
  entries: number;
  /** Elements or lines dropped: unclosed, over-long, or without a `<loc>`. */
  malformed: number;
  format: 'xml' | 'text' | null;
}

/**
 * Push chunks of a sitemap's text with {@link push}, then call {@link end}; each entry is handed
 * to `onEntry` as soon as its element is complete. `onEntry` returning false stops the parser
 * (a cap was reached): later input is ignored and {@link stopped} is true.
 */
export class SitemapParser {
  private buf = '';
  private format: 'xml' | 'text' | null = null;
  private halted = false;
  readonly stats: ParseStats = { entries: 0, malformed: 0, format: null };

  constructor(private readonly onEntry: (e: SitemapEntry) => boolean | void) {}

  get stopped(): boolean {
    return this.halted;
  }

  push(chunk: string): void {
    if (this.halted) return;
    this.buf += chunk;
    if (!this.format) {
      const first = /\S/.exec(this.buf.replace(/^\uFEFF/, ''));
      if (!first) {
        this.buf = '';
        return;
      }
      this.format = this.stats.format = first[0] === '<' ? 'xml' : 'text';
    }
    if (this.format === 'xml') this.scanXml(false);
    else this.scanText(false);
  }

  end(): void {
    if (this.halted) return;
    if (this.format === 'xml') this.scanXml(true);
    else if (this.format === 'text') this.scanText(true);
    this.buf = '';
  }

  private emit(e: SitemapEntry): void {
    this.stats.entries++;
    if (this.onEntry(e) === false) {
      this.halted = true;
      this.buf = '';
    }
  }

  private scanXml(final: boolean): void {
    let pos = 0;
    for (;;) {
      if (this.halted) return;
      ELEMENT.lastIndex = pos;
      const m = ELEMENT.exec(this.buf);
      if (!m) {
        // Keep a short tail: an element's opening tag may be split across chunks.
        pos = Math.max(pos, this.buf.length - 16);
        break;
      }
      const name = m[1]!;
      const openEnd = this.buf.indexOf('>', m.index);
      if (openEnd === -1) {
        // The opening tag is not complete yet.
        if (!final && this.buf.length - m.index <= MAX_ELEMENT_CHARS) {
          pos = m.index;
          break;
        }
        this.stats.malformed++;
        pos = this.buf.length;
        break;
      }
      if (this.buf[openEnd - 1] === '/') {
        this.stats.malformed++; // <url/>: nothing in it
        pos = openEnd + 1;
        continue;
      }
      const close = this.buf.indexOf(`</${name}>`, m.index);
      // The next opening of the same element before this one's close: this one was never closed.
      ELEMENT.lastIndex = m.index + 1 + name.length;
      const next = ELEMENT.exec(this.buf);
      if (close === -1) {
        if (next) {
          this.stats.malformed++;
          pos = next.index;
          continue;
        }
        if (final || this.buf.length - m.index > MAX_ELEMENT_CHARS) {
          this.stats.malformed++;
          pos = final ? this.buf.length : m.index + 1;
          if (final) break;
          continue;
        }
        pos = m.index; // wait for more input
        break;
      }
      if (next && next.index < close && next[1] === name) {
        this.stats.malformed++;
        pos = next.index;
        continue;
      }
      const body = this.buf.slice(openEnd + 1, close);
      pos = close + name.length + 3;
      if (body.length > MAX_ELEMENT_CHARS) {
        this.stats.malformed++;
        continue;
      }
      const loc = LOC.exec(body);
      const locText = loc ? xmlText(loc[1]!) : '';
      if (!locText) {
        this.stats.malformed++;
        continue;
      }
      const lastmod = LASTMOD.exec(body);
      let title: string | null = null;
      if (name === 'url') {
        for (const re of TITLES) {
          const t = re.exec(body);
          if (t && (title = xmlText(t[1]!).slice(0, 500) || null)) break;
        }
      }
      this.emit({ kind: name as SitemapEntry['kind'], loc: locText, lastmod: lastmod ? xmlText(lastmod[1]!).slice(0, 64) || null : null, title });
    }
    this.buf = final ? '' : this.buf.slice(pos);
  }

  private scanText(final: boolean): void {
    let start = 0;
    for (;;) {
      if (this.halted) return;
      const nl = this.buf.indexOf('\n', start);
      if (nl === -1) break;
      this.line(this.buf.slice(start, nl));
      start = nl + 1;
    }
    let rest = this.buf.slice(start);
    if (final) {
      if (rest) this.line(rest);
      rest = '';
    } else if (rest.length > MAX_LINE_CHARS) {
      // An endless line: drop what we have and skip to its end.
      this.stats.malformed++;
      rest = '';
      this.skipLine = true;
    }
    this.buf = rest;
  }

  private skipLine = false;

  private line(raw: string): void {
    if (this.skipLine) {
      this.skipLine = false;
      return;
    }
    const s = raw.trim();
    if (!s || s.startsWith('#')) return;
    if (s.length > MAX_LINE_CHARS || !/^https?:\/\/\S+$/i.test(s)) {
      this.stats.malformed++;
      return;
    }
    this.emit({ kind: 'url', loc: s, lastmod: null, title: null });
  }
}
