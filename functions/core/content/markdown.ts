import { codeLanguageOf } from './code-language.js';
import { imageSource } from './dom.js';
import { markdownPieces, tableRestRows } from './markdown-chunks.js';
import { NodeHtmlMarkdown, PostProcessResult, type TranslatorConfig, type TranslatorConfigFactory, type TranslatorConfigObject } from 'node-html-markdown';
import { isWhiteSpaceOnly, tagSurround, trimNewLines } from 'node-html-markdown/dist/utilities.js';

/*
 * HTML -> markdown that survives a round trip through a GFM renderer. node-html-markdown was
 * picked over turndown (about 4x less CPU per page, GFM tables built in); its defaults are kept
 * where they are right and replaced by the translators below where they are not:
 *
 * - code blocks: a `<pre>` is always a fenced block (also without `<code>`, or with whitespace
 *   around its `<code>`), with the language the page names (code-language.ts: `language-x`,
 *   `lang-x`, `brush: x`, `highlight-source-x`, `hljs x`, `data-lang`… on the code, the pre or up to
 *   two wrappers) and a fence longer than any backtick run inside; blank lines inside code are kept.
 * - tables: compact GFM rows (no padding to the widest cell), a `---` delimiter under the first
 *   row, every `|` in a cell escaped (the library escapes only the first), `<br>` in a cell kept as
 *   `<br>` (GFM cells are one line), inline code kept in cells, a colspan as empty cells after it.
 * - links and images: absolute against the page's base URL (fragments kept); a link with no text
 *   and no image is dropped, a heading's permalink anchor (`¶`, `#`, `§`) too; `data:` images become
 *   their alt text (a base64 blob is not content); lazy images use `data-src` when `src` is a
 *   placeholder; a srcset list written into `src` gives its first image.
 * - list items hold their blocks: every line after the first is indented to the marker's width
 *   (2 under `- `, 3 under `1. `), so nested lists, paragraphs, code and tables stay in the item.
 * - a link around a heading (a card) keeps the heading, its text linked; blocks inside a link are
 *   apart by spaces.
 * - headings on one line, empty headings dropped; links only to http(s), mailto: and tel:
 *   (a `javascript:` or app link keeps its text).
 * - block quotes: every line quoted, a quoted code block's indentation kept (a documentation page's
 *   admonitions arrive as quotes with their title in bold: serialize.ts).
 * - inline code as its text (markup inside a code span is literal); nested bold and emphasis once.
 * - at most one blank line in a row (outside code blocks), no trailing spaces on blank lines.
 */

/** Base URL of the document being converted; set for the duration of one synchronous translate. */
let currentBase = 'http://invalid/';

/** Resolve a URL against the current base; keeps the fragment. Null for unusable values. */
function resolveUrl(raw: string | undefined | null): string | null {
  const v = raw?.trim();
  if (!v) return null;
  if (/^(?:mailto|tel):/i.test(v)) return v;
  try {
    const u = new URL(v, currentBase);
    // javascript:, whatsapp:, sms:, app deep links… lead nowhere a reader of the markdown can follow.
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

// What a title is compared by: its words, lower case (markup and punctuation aside).
const titleWords = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

/**
 * A link's or an image's title, written after its address (` "Title"`), unless it says nothing
 * the reader has not read: empty, the link text or alt text again, or the address (about half of
 * the titles on the WCXB development pages: `[SSH](… "SSH")`).
 */
function titlePart(title: string | null | undefined, text: string, url: string): string {
  const t = title?.trim();
  if (!t) return '';
  const words = titleWords(t);
  if (!words || words === titleWords(text) || t === url || words === titleWords(url)) return '';
  return ` "${escapeTitle(t)}"`;
}

/** A link destination that needs no angle brackets: spaces and parentheses percent-encoded. */
const destination = (url: string) => url.replace(/[()\s<>]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
const escapeAlt = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
const escapeTitle = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/"/g, '\\"');

/** What a translator factory receives (the package does not export the type by name). */
type TranslatorContext = Parameters<TranslatorConfigFactory>[0];
type Element = TranslatorContext['node'];

/** The language a code block's markup names, if any (code-language.ts: on the code, the pre or up to two wrappers). */
function codeLanguage(pre: Element): string {
  const code = Array.from(pre.childNodes as ArrayLike<unknown>).find((c) => (c as Element).tagName === 'CODE') as Element | undefined;
  const wrapper = pre.parentNode as Element | null;
  const attr = (el: Element | null | undefined) => (name: string) => (el?.getAttribute ? el.getAttribute(name) : undefined);
  return codeLanguageOf([
    { attr: attr(code), bare: true },
    { attr: attr(pre), bare: true },
    { attr: attr(wrapper), bare: false },
    { attr: attr(wrapper?.parentNode as Element | null), bare: false },
  ]);
}

/** A fenced block: the fence is longer than any backtick run in the code. */
function fence(code: string, lang: string): string {
  const longest = Math.max(0, ...(code.match(/`{3,}/g) ?? []).map((r) => r.length));
  const f = '`'.repeat(Math.max(3, longest + 1));
  // HTML drops one newline right after <pre>; trailing blank lines are layout, not code.
  const body = code.replace(/^\r?\n/, '').replace(/\s+$/, '');
  return `${f}${lang}\n${body}\n${f}`;
}

const preTranslator = ({ node, visitor }: TranslatorContext): TranslatorConfig => {
  const lang = codeLanguage(node);
  return {
    noEscape: true,
    preserveWhitespace: true,
    surroundingNewlines: 2,
    childTranslators: visitor.instance.codeBlockTranslators,
    postprocess: ({ content }) => (content.trim() ? fence(content, lang) : PostProcessResult.RemoveNode),
  };
};

// An image that stands for an emoji: its alt text is the emoji itself (Twemoji, NodeBB's and
// WordPress's emoji images), pictographs with their modifiers, joiners and flags.
const EMOJI_ALT = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\u200d|\ufe0f|\u20e3){1,16}$/u;

const imgTranslator = ({ node }: TranslatorContext): TranslatorConfig => {
  const alt = node.getAttribute('alt') ?? '';
  // An emoji drawn as an image is the emoji, as a reader reads it: `🌟`, not `![🌟](https://…/1f31f.png)`.
  if (EMOJI_ALT.test(alt)) return { content: alt, recurse: false };
  let src = node.getAttribute('src') ?? '';
  const lazy = node.getAttribute('data-src');
  if (lazy && (!src || /^data:/i.test(src))) src = lazy;
  const url = resolveUrl(imageSource(src));
  if (!url || /^data:/i.test(url)) {
    // A lazy-loading placeholder (an empty SVG, a pixel) stands for an image the page's script
    // loads later: an image, not text, even when its address is unknown.
    if (isPlaceholder(url ?? src)) return { ignore: true };
    // An inlined image is a blob, not content: its alt text stands in for it.
    const text = escapeAlt(alt);
    return text ? { content: text, recurse: false } : { ignore: true };
  }
  const title = node.getAttribute('title');
  return { content: `![${escapeAlt(alt)}](${destination(url)}${titlePart(title, alt, url)})`, recurse: false };
};

// The longest `data:` URI read as a placeholder: an empty SVG with its size, a 1x1 GIF or PNG.
const MAX_PLACEHOLDER_CHARS = 400;

/** Whether the `data:` URI `src` is a lazy-loading placeholder: an SVG that draws nothing, or a few bytes of pixels. */
function isPlaceholder(src: string): boolean {
  if (!/^data:image\//i.test(src) || src.length > MAX_PLACEHOLDER_CHARS) return false;
  if (!/^data:image\/svg/i.test(src)) return true;
  let svg = src;
  try {
    svg = decodeURIComponent(src);
  } catch {
    /* as written */
  }
  // Base64 SVG: decoded when it is short enough to be a placeholder.
  const b64 = /;base64,(.*)$/i.exec(svg);
  if (b64) svg = Buffer.from(b64[1]!, 'base64').toString('utf8');
  return !/<(?:path|rect|circle|ellipse|line|polyline|polygon|text|image|use|g)\b/i.test(svg);
}

const PERMALINK_TEXT = new Set(['¶', '#', '§', '🔗', '#️⃣']);

/**
 * Whether a link goes to a place in the page itself: a fragment as written, or made absolute
 * before conversion (the serializer resolves every link against the page's base, so a heading's
 * `href="#section"` arrives here as `https://…/page#section`).
 */
function withinPage(raw: string | null | undefined, href: string): boolean {
  if (raw?.trim().startsWith('#')) return true;
  const hash = href.indexOf('#');
  return hash >= 0 && href.slice(0, hash) === currentBase.split('#', 1)[0];
}

const HEADING_TAG = /^H[1-6]$/;

/** Whether `el` holds a heading (a card: `<a><h3>title</h3><p>blurb</p></a>`), a few levels down. */
function holdsHeading(el: Element, depth = 4): boolean {
  for (const c of el.childNodes as unknown as Element[]) {
    const tag = c.tagName;
    if (!tag) continue;
    if (HEADING_TAG.test(tag) || (depth > 1 && holdsHeading(c, depth - 1))) return true;
  }
  return false;
}

const aTranslator = ({ node, visitor }: TranslatorContext): TranslatorConfig => {
  const raw = node.getAttribute('href');
  const href = resolveUrl(raw);
  const title = node.getAttribute('title');
  // A link around a heading and more (a card) is blocks: the heading stays a heading, of its level,
  // its text the link; a link cannot hold a heading in markdown.
  if (holdsHeading(node)) {
    return {
      surroundingNewlines: 2,
      postprocess: ({ content }) => {
        const text = content.trim();
        if (!text) return PostProcessResult.RemoveNode;
        if (!href) return text;
        return text.replace(/^(#{1,6}) (.+)$/m, (_, hashes: string, h: string) => `${hashes} [${h}](${destination(href)})`);
      },
    };
  }
  return {
    childTranslators: visitor.instance.aTagTranslators,
    postprocess: ({ content }) => {
      const text = content.replace(/\s*\n+\s*/g, ' ').trim();
      // The space a link's text opens or closes with stays, outside the brackets: "uses<a> natural
      // materials </a>organic" reads "uses [natural materials](…) organic", not "uses[…]organic".
      const lead = /^\s/.test(content) ? ' ' : '';
      const trail = /\s$/.test(content) ? ' ' : '';
      if (!text) return lead || trail || PostProcessResult.RemoveNode; // [](…) carries nothing
      if (!href) return `${lead}${text}${trail}`;
      if (PERMALINK_TEXT.has(text) && withinPage(raw, href)) return PostProcessResult.RemoveNode;
      if (`mailto:${text}` === href) return `${lead}<${text}>${trail}`;
      if (text === href || text === raw) return `${lead}<${href}>${trail}`;
      return `${lead}[${text}](${destination(href)}${titlePart(title, text, href)})${trail}`;
    },
  };
};

/** Stands for a <br> inside a cell until the cell is joined into one line (a private-use character). */
const CELL_BREAK = '\uE000';

/** One table cell on one line: pipes escaped, line breaks as `<br>`, paragraphs as spaces. */
const cellTranslator = ({ node, visitor }: TranslatorContext): TranslatorConfig => ({
  surroundingNewlines: false,
  childTranslators: visitor.instance.tableCellTranslators,
  prefix: ' ',
  // A cell spanning n columns is followed by n - 1 empty ones (GFM has no spans; columns stay in line).
  postfix: ' |'.repeat(Math.min(20, Math.max(1, Number.parseInt(node.getAttribute('colspan') ?? '', 10) || 1))),
  postprocess: ({ content }) =>
    content
      .replaceAll(CELL_BREAK, '<br>')
      .replace(/\s*\n\s*/g, ' ')
      .replace(/(?<!\\)\|/g, '\\|')
      .trim(),
});

/**
 * The text of an inline `<code>` as a code span shows it: markup inside is not markup there
 * (`<code><strong>break</strong>;</code>` is `break;`, not `**break**;`; an `<i>` placeholder's
 * underscores would glue to its word), a nested `<code>` or a link is its text, a `<br>` a space.
 * An explicit stack (a page's nesting is not the call stack's).
 */
function codeText(node: Element): string {
  let out = '';
  const stack: unknown[] = [node];
  while (stack.length) {
    const n = stack.pop() as { nodeType?: number; tagName?: string; childNodes?: ArrayLike<unknown>; text?: string };
    if (n.nodeType === 3) {
      out += n.text ?? '';
      continue;
    }
    const tag = n.tagName?.toUpperCase();
    if (tag === 'BR') out += ' ';
    else if (n !== node && (tag === 'SCRIPT' || tag === 'STYLE' || tag === 'TEMPLATE')) continue;
    const kids = n.childNodes ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return out;
}

/** `text` as a code span: delimited by a backtick run longer than any inside, padded when it holds one. */
function codeSpan(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((r) => r.length));
  const d = '`'.repeat(longest + 1);
  const pad = longest ? ' ' : '';
  return `${d}${pad}${text}${pad}${d}`;
}

/** The one link an inline `<code>` holds, all of its text inside it (`<code><a href>+ipc</a></code>`). */
function soleLink(node: Element): Element | undefined {
  let link: Element | undefined;
  for (const c of Array.from(node.childNodes as ArrayLike<{ nodeType?: number; tagName?: string; text?: string }>)) {
    if (c.nodeType === 3) {
      if ((c.text ?? '').trim()) return undefined;
    } else if (c.nodeType === 1) {
      if (link || c.tagName?.toUpperCase() !== 'A') return undefined;
      link = c as unknown as Element;
    }
  }
  return link;
}

/**
 * Inline code: its text in a code span (codeText). A code whose text is one link is the link
 * around the span (`[`+ipc`](…)`): a link inside a span would show as its markup. Inside a link
 * (`inLink`), the span alone.
 */
const codeTranslator =
  (inLink: boolean) =>
  ({ node }: TranslatorContext): TranslatorConfig => {
    const text = codeText(node).replace(/\s+/g, ' ');
    if (!text.trim()) return { ignore: true };
    const span = codeSpan(text);
    const link = inLink ? undefined : soleLink(node);
    const href = link && resolveUrl(link.getAttribute('href'));
    return { spaceIfRepeatingChar: true, noEscape: true, recurse: false, content: href ? `[${span}](${destination(href)})` : span };
  };
const inlineCode = codeTranslator(false);

/** A heading on one line; an empty one (an icon, a dropped permalink) is dropped. */
const headingTranslator = ({ node }: TranslatorContext): TranslatorConfig => ({
  surroundingNewlines: 2,
  postprocess: ({ content }) => {
    const text = unbolded(content.replace(/\s*\n+\s*/g, ' ').trim());
    return text ? `${'#'.repeat(Number(node.tagName.charAt(1)) || 1)} ${text}` : PostProcessResult.RemoveNode;
  },
});

// A heading's whole text in bold (`<h2><strong>…</strong></h2>`), or its whole link's: one run
// of bold, no other inside.
const WHOLE_BOLD = /^\*\*((?:(?!\*\*)[^])+)\*\*$/;
const WHOLE_BOLD_LINK = /^\[\*\*((?:(?!\*\*)[^\]])+)\*\*\](\(.*\))$/;

/**
 * A heading without the bold its whole text is set in: a heading is bold already, and `## **Title**`
 * says it twice (1,863 headings on 191 of the two WCXB halves' pages).
 */
function unbolded(text: string): string {
  const whole = WHOLE_BOLD.exec(text);
  if (whole) return whole[1]!.trim();
  const link = WHOLE_BOLD_LINK.exec(text);
  return link ? `[${link[1]!.trim()}]${link[2]}` : text;
}

/** Indent every line after the first by `width` spaces (blank lines stay empty). */
const indentRest = (text: string, width: number) => text.replace(/\n(?=[^\n])/g, `\n${' '.repeat(width)}`);

/**
 * A list item: its marker (`-`, or its number, from `<ol start>` on), then its content with every
 * further line indented to the marker's width, so the paragraphs, code blocks, tables and nested
 * lists of one item stay in it (CommonMark list items). The library keeps only the first line in
 * the item, turns paragraphs into hard breaks and code lines into `code  ` lines.
 */
const liTranslator = ({ node, listKind, listItemNumber }: TranslatorContext): TranslatorConfig => {
  let marker = '-';
  if (listKind === 'OL' && listItemNumber !== undefined) {
    const start = Number.parseInt((node.parentNode as Element | null)?.getAttribute?.('start') ?? '', 10);
    marker = `${Number.isFinite(start) ? listItemNumber + start - 1 : listItemNumber}.`;
  }
  return {
    prefix: `${marker} `,
    surroundingNewlines: 1,
    postprocess: ({ content }) => {
      const text = content.trim();
      return text ? indentRest(text, marker.length + 1) : PostProcessResult.RemoveNode;
    },
  };
};

/** A list; one written straight into another list (no `<li>` between) is nested under it. */
const listTranslator = ({ node, listKind }: TranslatorContext): TranslatorConfig => {
  const parent = (node.parentNode as Element | null)?.tagName;
  const inList = parent === 'UL' || parent === 'OL';
  return {
    surroundingNewlines: listKind ? 1 : 2,
    ...(inList && { postprocess: ({ content }: { content: string }) => `${' '.repeat(parent === 'OL' ? 3 : 2)}${indentRest(content.trim(), parent === 'OL' ? 3 : 2)}` }),
  };
};

/**
 * A GFM table, compact: `| a | b |` rows (cells are not padded to the widest cell: a column with
 * one long cell would pad every row with hundreds of spaces), a `| --- |` delimiter row under the
 * first row, every row with as many cells as the widest, the caption above it after a blank line.
 */
const tableTranslator = ({ visitor }: TranslatorContext): TranslatorConfig => ({
  surroundingNewlines: 2,
  childTranslators: visitor.instance.tableTranslators,
  postprocess: ({ content, nodeMetadata, node }) => {
    const rows: string[][] = [];
    let width = 0;
    for (const line of content.split('\n')) {
      const row = line.trim();
      if (!row.startsWith('|')) continue;
      // A row is `| a | b |`: every cell ends in ` |` (pipes inside cells are escaped `\|`).
      const cells = row.slice(1).split(' |').map((c) => c.trim());
      cells.pop();
      if (!cells.length) continue;
      rows.push(cells);
      width = Math.max(width, cells.length);
    }
    if (!rows.length) return PostProcessResult.RemoveNode;
    const line = (cells: string[]) => `| ${cells.concat(Array<string>(width - cells.length).fill('')).join(' | ')} |`.replace(/ {2}\|/g, ' |');
    const out = [line(rows[0]), line(Array<string>(width).fill('---')), ...rows.slice(1).map(line)].join('\n');
    // The library writes the caption as `__caption__`: bold, as the rest of the document writes it.
    const caption = nodeMetadata.get(node)?.tableMeta?.caption?.replace(/^__([\s\S]*)__$/, '**$1**');
    return caption ? `${caption}\n\n${out}` : out;
  },
});

// Stands for an underscore the emphasis keeps while the library surrounds it (a private-use character).
const KEPT_UNDERSCORE = '\uE001';
/**
 * The inline code spans of `s` as [start, end) offsets, in order: a run of backticks up to the
 * next run of the same length (CommonMark's rule; a run with no such partner is text). One pass
 * over the runs, each run length's partners looked for from where its last search stopped: linear
 * (a regex with a back-reference and nested repeats took 57 s on 750 characters of backtick runs).
 */
export function codeSpans(s: string): [number, number][] {
  const runs: [number, number][] = [];
  for (let i = s.indexOf('`'); i !== -1; i = s.indexOf('`', i)) {
    let j = i;
    while (s.charCodeAt(j) === 96) j++;
    runs.push([i, j - i]);
    i = j;
  }
  const byLength = new Map<number, number[]>();
  runs.forEach(([, n], k) => (byLength.get(n) ?? byLength.set(n, []).get(n)!).push(k));
  const next = new Map<number, number>();
  const spans: [number, number][] = [];
  for (let k = 0; k < runs.length; k++) {
    const [at, n] = runs[k]!;
    const same = byLength.get(n)!;
    let p = next.get(n) ?? 0;
    while (p < same.length && same[p]! <= k) p++;
    next.set(n, p);
    if (p === same.length) continue;
    const close = same[p]!;
    spans.push([at, runs[close]![0] + n]);
    k = close;
  }
  return spans;
}

/** `s` with `f` applied to each inline code span (see codeSpans), the rest as written. */
function mapCodeSpans(s: string, f: (code: string) => string, rest: (part: string, offset: number) => string = (part) => part): string {
  let out = '';
  let last = 0;
  for (const [start, end] of codeSpans(s)) {
    out += rest(s.slice(last, start), last) + f(s.slice(start, end));
    last = end;
  }
  return out + rest(s.slice(last), last);
}

/**
 * Emphasis as the library writes it (`_text_`, its whitespace outside), but an underscore inside a
 * word (`with_query`, `file_name`) or inside inline code stays: the library's surround removes
 * every underscore it finds in the content, as a nested emphasis's delimiter, so
 * `<em><code>with_query</code></em>` read "withquery". A nested emphasis's own underscores (at a
 * word's edge) still go, the one opening the content too (the library's pattern needs a character
 * before it: `<em><em>x</em></em>` read `__x_`); a link's address keeps its own (`/r01/_https…`
 * lost them, a broken link).
 */
// A link's or an image's destination (and title) as written, or an autolink: its underscores are the address's.
const LINK_TARGET = /\]\([^)\n]*\)|<(?:https?:|mailto:|tel:)[^>\s]*>/g;
const emTranslator: TranslatorConfig = {
  spaceIfRepeatingChar: true,
  postprocess: ({ content }) => {
    if (isWhiteSpaceOnly(content)) return PostProcessResult.RemoveNode;
    const kept = mapCodeSpans(content, (code) => code.replaceAll('_', KEPT_UNDERSCORE))
      .replace(LINK_TARGET, (target) => target.replaceAll('_', KEPT_UNDERSCORE))
      .replace(/(?<=[\p{L}\p{N}])_(?=[\p{L}\p{N}])/gu, KEPT_UNDERSCORE);
    return tagSurround(kept.replace(/(?<!\\)_/g, ''), '_').replaceAll(KEPT_UNDERSCORE, '_');
  },
};

// Stands for an asterisk of a code span while bold or strikethrough markup is written around it.
const KEPT_STAR = '\uE002';
const KEPT_TILDE = '\uE003';

/**
 * Bold (`**`) and strikethrough (`~~`) written once around their content: the same markup nested
 * inside loses its delimiters wherever they stand (the library's pattern misses one that opens the
 * content: `<b><strong>Toner</strong></b>` read `****Toner**`, a broken line); a code span's
 * asterisks and tildes are its text and stay.
 */
const NESTED = { '**': /(?<!\\)\*\*/g, '~~': /(?<!\\)~~/g };

/**
 * `content` written by `wrap` without the delimiters of the same markup nested in it (`delim`,
 * unless escaped), the characters of its code spans kept as they are.
 */
function onceAround(content: string, delim: '**' | '~~', wrap: (inner: string) => string): string {
  const char = delim[0]!;
  const kept = char === '*' ? KEPT_STAR : KEPT_TILDE;
  const inner = mapCodeSpans(content, (code) => code.replaceAll(char, kept), (part) => part.replace(NESTED[delim], ''));
  return wrap(inner).replaceAll(kept, char);
}

const surroundOnce = (delim: '**' | '~~'): TranslatorConfig => ({
  spaceIfRepeatingChar: true,
  postprocess: ({ content }) => (isWhiteSpaceOnly(content) ? PostProcessResult.RemoveNode : onceAround(content, delim, (inner) => tagSurround(inner, delim))),
});
const strongTranslator = surroundOnce('**');
const strikeTranslator = surroundOnce('~~');

// A code fence opening a line (a fence in a list item is indented to the item's content, or opens
// the item: `- ```js`).
const FENCE = /^\s*(?:(?:[-*+]|\d{1,9}[.)]) +)?(`{3,}|~{3,})/;

/** The fence (its run of backticks or tildes) a markdown line opens with, if any. */
const fenceMark = (line: string): string | undefined => FENCE.exec(line)?.[1];

/** Whether `line` (whose fence mark is `mark`) closes the block `open` opened: the same character, at least as long, alone on its line. */
const closesFence = (open: string, mark: string | undefined, line: string): boolean => !!mark && mark[0] === open[0] && mark.length >= open.length && line.trim() === mark;

/**
 * A block quote: every line behind `> `, a nested quote's line behind `>` (`>> x`), an empty line
 * `>`. The library's own pattern took one space of every line's indent as the marker's, so a code
 * block quoted lost a space of indentation on each line; a lone space opening a line of text (a
 * line break's leftover) still goes, an indent of two or more (a list item's lines) stays.
 */
const blockquoteTranslator: TranslatorConfig = {
  postprocess: ({ content }) => {
    if (isWhiteSpaceOnly(content)) return PostProcessResult.RemoveNode;
    let fence: string | null = null;
    return trimNewLines(content)
      .split('\n')
      .map((line) => {
        const mark = fenceMark(line);
        const inCode = fence !== null;
        if (fence === null) fence = mark ?? null;
        else if (closesFence(fence, mark, line)) fence = null;
        const text = inCode ? line : line.replace(/^ (?! )/, '');
        return text.startsWith('>') ? `>${text}` : text ? `> ${text}` : '>';
      })
      .join('\n');
  },
};

/**
 * A definition list's term (a glossary's word, a field list's "Author:", an API reference's
 * signature in Sphinx's `<dt>`): a line of its own in bold, its definition the blocks after it. A
 * term of several lines or blocks stays as written.
 */
const dtTranslator: TranslatorConfig = {
  surroundingNewlines: 2,
  postprocess: ({ content }) => {
    const text = content.trim();
    if (!text) return PostProcessResult.RemoveNode;
    if (text.includes('\n') || BLOCK_START.test(text) || WHOLE_BOLD.test(text)) return text;
    return onceAround(text, '**', (inner) => `**${inner.trim()}**`);
  },
};

const translators: TranslatorConfigObject = {
  blockquote: blockquoteTranslator,
  dt: dtTranslator,
  dd: { surroundingNewlines: 2 },
  'h1,h2,h3,h4,h5,h6': headingTranslator,
  'em,i': emTranslator,
  'strong,b': strongTranslator,
  'del,s,strike': strikeTranslator,
  // A disclosure's title and body: blocks (the converter reads unknown tags inline, so a FAQ's
  // question ran into its answer: "…Financial AccountingIntegrated course…").
  'details,summary': { surroundingNewlines: 2 },
  table: tableTranslator,
  li: liTranslator,
  'ol,ul': listTranslator,
  pre: preTranslator,
  // <code> outside <pre> is inline code; inside <pre> the pre's code-block translators apply.
  code: inlineCode,
  img: imgTranslator,
  a: aTranslator,
};

const BLOCK_START = /^\s*(?:[-*+] |\d+[.)] |#|>|\||```|~~~)/;

// Where a line's content starts: after its indent, quote marks and list marker; a heading's
// hashes after those.
const CONTENT_START = /^(\s*(?:>\s?)*(?:(?:[-*+]|\d{1,9}[.)])\s+)?)(#{1,6}\s+)?/;
// The escapes of line-start markup (lineStartEscape below): `1\. `, `1\) `, `\-`, `\+ `, `\>`, `\=`.
const MARKUP_ESCAPE = /(?<!\\)(\d+)\\([.)]\s)|(?<!\\)\\([-+>=])/g;

/**
 * `line` without the escapes of line-start markup that stand anywhere but at the start of its
 * content: the converter escapes every text node that opens with `1. `, `-`, `+ `, `>` or `=`,
 * also one that follows a link or a bold phrase mid-line ("E-**E**\-A-T", "[Home](…)1\. Cherry"),
 * and a heading's ("## 1\. Introduction") where no list can start. Markdown a reader or a model
 * reads without the stray backslashes; inline code is left as written.
 */
function withoutMidLineEscapes(line: string): string {
  if (!line.includes('\\')) return line;
  const m = CONTENT_START.exec(line)!;
  // In a heading nothing needs the escape; elsewhere only the content's first character does.
  const start = m[2] ? -1 : m[1]!.length;
  const unescape = (part: string, offset: number) =>
    part.replace(MARKUP_ESCAPE, (all: string, digits: string | undefined, dot: string | undefined, mark: string | undefined, at: number) =>
      offset + at === start ? all : digits !== undefined ? `${digits}${dot}` : mark!);
  return mapCodeSpans(line, (code) => code, unescape);
}

/**
 * Collapse runs of blank lines to one (outside fenced code), drop whitespace that renders as
 * nothing: on blank lines, at the end of a heading, a hard break before a blank line or a new block
 * (a nested list item), and the single space a removed inline element leaves at a paragraph start.
 */
export function tidyMarkdown(md: string): string {
  const lines = md.split('\n');
  const out: string[] = [];
  let inFence: string | null = null;
  let topList: 'ul' | 'ol' | null = null;
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i]!;
    const mark = fenceMark(line);
    if (inFence) {
      out.push(line);
      if (closesFence(inFence, mark, line)) inFence = null;
      continue;
    }
    if (mark) {
      inFence = mark;
      out.push(line);
      continue;
    }
    if (!line.trim()) {
      if (out.length && out[out.length - 1] !== '') out.push('');
      topList = null;
      continue;
    }
    // A list right after a list of the other kind needs a blank line, or CommonMark reads it as
    // the previous item's text (an ordered list not starting at 1 cannot interrupt a paragraph).
    const kind: 'ul' | 'ol' | null = /^[-*+] /.test(line) ? 'ul' : /^\d+[.)] /.test(line) ? 'ol' : /^\s/.test(line) ? topList : null;
    if (kind && topList && kind !== topList && out[out.length - 1] !== '') out.push('');
    topList = kind;
    const next = lines[i + 1];
    if (line.startsWith('#') || next === undefined || !next.trim() || BLOCK_START.test(next) || !/\S {2,}$/.test(line)) line = line.trimEnd();
    if (/^ \S/.test(line) && (out.length === 0 || out[out.length - 1] === '')) line = line.slice(1);
    out.push(withoutMidLineEscapes(line));
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

let converter: NodeHtmlMarkdown | undefined;
function markdownService(): NodeHtmlMarkdown {
  if (converter) return converter;
  const c = new NodeHtmlMarkdown(
    {
      bulletMarker: '-',
      codeBlockStyle: 'fenced',
      indent: '   ',
      // Collapsed by tidyMarkdown, which leaves code blocks alone (the library's pass does not).
      maxConsecutiveNewlines: 0,
      // An underscore between two letters or digits never opens or closes emphasis (CommonMark's
      // flanking rules): `group_id` stays as written, not `group\_id`; other markup is escaped. A
      // `<` that could open a tag or an autolink too: text such as `<commit>` or `<reviewer>` is
      // raw HTML to a renderer, which shows nothing of it.
      globalEscape: [/[\\`*~[\]]|<(?=[\p{L}/!?])|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gmu, '\\$&'],
      // Markup a line may start with (`+ `, `=`, `>`, `-`, `# `, `1. `, `1) `) is escaped at the start of a
      // text only. The library's own pattern leaves its `\d+\. ` case unanchored, so every year or
      // count that ends a sentence was written `2024\.` mid-line (1,713 lines over the 681 pages of
      // the WCXB tune half).
      lineStartEscape: [/^(\s*?)((?:\+\s)|(?:[=>-])|(?:#{1,6}\s))|^(\s*?)(\d+)([.)]\s)/gm, '$1$3$4\\$2$5'],
      ignore: ['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'object', 'embed', 'button', 'input', 'select', 'textarea'],
    },
    translators,
  );
  // Inside links and table cells the library uses its own collections: same rules there.
  // Blocks inside a link (a card's title and blurb) are apart by a space, not glued.
  c.aTagTranslators.set('p,div,li,ul,ol,dl,dt,dd,section,article,header,footer,figure,figcaption,blockquote,h1,h2,h3,h4,h5,h6,tr,td,th', { surroundingNewlines: 1 });
  c.aTagTranslators.set('img', imgTranslator);
  c.aTagTranslators.set('code', codeTranslator(true));
  for (const set of [c.aTagTranslators, c.tableCellTranslators]) {
    set.set('em,i', emTranslator);
    set.set('strong,b', strongTranslator);
    set.set('del,s,strike', strikeTranslator);
  }
  c.tableCellTranslators.set('img', imgTranslator);
  c.tableCellTranslators.set('a', aTranslator);
  c.tableCellTranslators.set('code', inlineCode);
  c.tableCellTranslators.set('br', { content: CELL_BREAK, recurse: false });
  // Paragraphs and lists in a cell: separated by a space (the cell postprocess joins lines).
  c.tableCellTranslators.set('p,div,li,ul,ol,h1,h2,h3,h4,h5,h6,blockquote', { surroundingNewlines: 1 });
  // A table inside a cell: its cells and rows apart, by spaces (a cell is one line).
  c.tableCellTranslators.set('table,tr,td,th,caption', { surroundingNewlines: 1 });
  c.tableTranslators.set('th,td', cellTranslator);
  c.tableRowTranslators.set('th,td', cellTranslator);
  converter = c;
  return c;
}

/**
 * HTML (a fragment or a document) -> GFM markdown: headings, nested lists, GFM tables, fenced code
 * with its language, absolute links and images (resolved against `baseUrl`), no `data:` images,
 * no empty links, at most one blank line in a row.
 */
export function htmlToMarkdown(html: string, baseUrl: string): string {
  currentBase = baseUrl;
  try {
    const pieces = markdownPieces(html);
    if (pieces.length === 1) return tidyMarkdown(markdownService().translate(html));
    // A large fragment in pieces (markdown-chunks.ts): a table's, a list's or a paragraph's later
    // pieces continue it on the next line (after a paragraph's line break, as the converter writes one).
    let out = '';
    for (const p of pieces) {
      const md = tidyMarkdown(markdownService().translate(p.html));
      if (!md) continue;
      if (!p.rest) out += `${out ? '\n\n' : ''}${md}`;
      else out += `${p.rest === 'break' ? '  \n' : '\n'}${p.rest === 'table' ? tableRestRows(md) : md}`;
    }
    return tidyMarkdown(out);
  } finally {
    currentBase = 'http://invalid/';
  }
}
