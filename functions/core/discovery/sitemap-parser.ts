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

/** An opening or closing `url`/`sitemap` tag (not `urlset`, not `image:loc`). */
const TAG = /<(\/?)(url|sitemap)(?=[\s>/])/g;
/** The end of a tag, or the start of the next one. */
const GT = /[<>]/g;
/** Longest opening tag waited for across chunks (the protocol's have no attributes worth the name). */
const MAX_TAG_CHARS = 4096;
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

  /** The element open and not yet closed: its name, where it starts and where its body starts (buffer offsets). */
  private open: { name: string; start: number; body: number } | null = null;
  /** Where scanning resumes in the buffer: everything before it has been looked at once. */
  private scanPos = 0;

  /**
   * One pass over the buffer, left to right (issue 27): opening and closing `url`/`sitemap` tags
   * are found by one regular expression whose position only moves forward, and an element's body
   * is the text between its opening tag and the next such tag. So the parser is linear in its
   * input: an unclosed `<url` is dropped when the next one opens, without searching the rest of
   * the buffer for a close that is not there.
   */
  private scanXml(final: boolean): void {
    const buf = this.buf;
    let pos = this.scanPos;
    for (;;) {
      if (this.halted) return;
      TAG.lastIndex = pos;
      const m = TAG.exec(buf);
      if (!m) {
        // Keep a short tail: a tag may be split across chunks.
        pos = Math.max(pos, buf.length - 16);
        break;
      }
      const closing = m[1] === '/';
      const name = m[2]!;
      // The tag's end: its `>`, unless another `<` comes first (a broken tag).
      GT.lastIndex = m.index + 1;
      const gt = GT.exec(buf);
      if (!gt) {
        if (!final && buf.length - m.index <= MAX_TAG_CHARS) {
          pos = m.index; // the tag is not complete yet
          break;
        }
        this.stats.malformed++;
        pos = buf.length;
        break;
      }
      if (gt[0] === '<') {
        if (!closing) this.stats.malformed++;
        pos = gt.index;
        continue;
      }
      pos = gt.index + 1;
      if (closing) {
        const open = this.open;
        if (open && open.name === name) {
          this.open = null;
          this.element(name, buf.slice(open.body, m.index));
        }
        continue;
      }
      if (this.open) this.stats.malformed++; // the previous one was never closed
      this.open = null;
      if (buf[gt.index - 1] === '/') {
        this.stats.malformed++; // <url/>: nothing in it
        continue;
      }
      this.open = { name, start: m.index, body: pos };
    }
    if (this.open && (final || buf.length - this.open.start > MAX_ELEMENT_CHARS)) {
      // Never closed (end of input), or longer than an element may be.
      this.stats.malformed++;
      this.open = null;
    }
    if (final) {
      this.buf = '';
      this.scanPos = 0;
      return;
    }
    // Keep the open element (if any) and the unscanned tail; offsets move with the cut.
    const cut = Math.min(this.open ? this.open.start : pos, pos);
    this.buf = buf.slice(cut);
    this.scanPos = pos - cut;
    if (this.open) this.open = { name: this.open.name, start: this.open.start - cut, body: this.open.body - cut };
  }

  /** A complete element: its entry, or one more malformed. */
  private element(name: string, body: string): void {
    if (body.length > MAX_ELEMENT_CHARS) {
      this.stats.malformed++;
      return;
    }
    const loc = LOC.exec(body);
    const locText = loc ? xmlText(loc[1]!) : '';
    if (!locText) {
      this.stats.malformed++;
      return;
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
