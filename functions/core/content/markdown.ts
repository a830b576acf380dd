import { NodeHtmlMarkdown, PostProcessResult, type TranslatorConfig, type TranslatorConfigFactory, type TranslatorConfigObject } from 'node-html-markdown';

/*
 * HTML -> markdown that survives a round trip through a GFM renderer. node-html-markdown was
 * picked over turndown (about 4x less CPU per page, GFM tables built in); its defaults are kept
 * where they are right and replaced by the translators below where they are not:
 *
 * - code blocks: a `<pre>` is always a fenced block (also without `<code>`, or with whitespace
 *   around its `<code>`), with the language the page names (`language-x`, `lang-x`,
 *   `highlight-x`, `highlight-source-x`, `hljs-x` or `data-lang` on the code, the pre or up to two
 *   wrappers) and a fence longer than any backtick run inside; blank lines inside code are kept.
 * - tables: every `|` in a cell escaped (the library escapes only the first), `<br>` in a cell kept
 *   as `<br>` (GFM cells are one line), inline code kept in cells.
 * - links and images: absolute against the page's base URL (fragments kept); a link with no text
 *   and no image is dropped, a heading's permalink anchor (`¶`, `#`, `§`) too; `data:` images become
 *   their alt text (a base64 blob is not content); lazy images use `data-src` when `src` is a
 *   placeholder.
 * - nested lists indented by 3 spaces, so items under `1. ` nest in CommonMark too.
 * - headings on one line, empty headings dropped; links only to http(s), mailto: and tel:
 *   (a `javascript:` or app link keeps its text).
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

/** A link destination that needs no angle brackets: spaces and parentheses percent-encoded. */
const destination = (url: string) => url.replace(/[()\s<>]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0'));
const escapeAlt = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/[\\[\]]/g, '\\$&');
const escapeTitle = (s: string) => s.replace(/\s+/g, ' ').trim().replace(/"/g, '\\"');

const LANG_CLASS = /(?:^|\s)(?:language|lang|highlight-source|highlight|hljs|brush:?)-([A-Za-z0-9_+#.-]+)/i;
const NOT_A_LANGUAGE = new Set(['none', 'nohighlight', 'plaintext', 'plain', 'text', 'txt', 'default']);

/** What a translator factory receives (the package does not export the type by name). */
type TranslatorContext = Parameters<TranslatorConfigFactory>[0];
type Element = TranslatorContext['node'];

/** The language a code block's markup names, if any (on the element or up to two ancestors). */
function codeLanguage(pre: Element): string {
  const code = Array.from(pre.childNodes as ArrayLike<unknown>).find((c) => (c as Element).tagName === 'CODE') as Element | undefined;
  const candidates: (Element | null | undefined)[] = [code, pre, pre.parentNode as Element, pre.parentNode?.parentNode as Element];
  for (const el of candidates) {
    if (!el?.getAttribute) continue;
    const data = el.getAttribute('data-lang') ?? el.getAttribute('data-language');
    const fromClass = LANG_CLASS.exec(el.getAttribute('class') ?? '')?.[1];
    const lang = (data ?? fromClass ?? '').trim().toLowerCase();
    if (lang && /^[a-z0-9_+#.-]{1,30}$/.test(lang)) return NOT_A_LANGUAGE.has(lang) ? '' : lang;
  }
  return '';
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

const imgTranslator = ({ node }: TranslatorContext): TranslatorConfig => {
  const alt = node.getAttribute('alt') ?? '';
  let src = node.getAttribute('src') ?? '';
  const lazy = node.getAttribute('data-src');
  if (lazy && (!src || /^data:/i.test(src))) src = lazy;
  const url = resolveUrl(src);
  if (!url || /^data:/i.test(url)) {
    // An inlined image is a blob, not content: its alt text stands in for it.
    const text = escapeAlt(alt);
    return text ? { content: text, recurse: false } : { ignore: true };
  }
  const title = node.getAttribute('title');
  return { content: `![${escapeAlt(alt)}](${destination(url)}${title?.trim() ? ` "${escapeTitle(title)}"` : ''})`, recurse: false };
};

const PERMALINK_TEXT = new Set(['¶', '#', '§', '🔗', '#️⃣']);

const aTranslator = ({ node, visitor }: TranslatorContext): TranslatorConfig => {
  const raw = node.getAttribute('href');
  const href = resolveUrl(raw);
  const title = node.getAttribute('title');
  return {
    childTranslators: visitor.instance.aTagTranslators,
    postprocess: ({ content }) => {
      const text = content.replace(/\s*\n+\s*/g, ' ').trim();
      if (!text) return PostProcessResult.RemoveNode; // [](…) carries nothing
      if (!href) return text;
      if (raw?.trim().startsWith('#') && PERMALINK_TEXT.has(text)) return PostProcessResult.RemoveNode;
      if (`mailto:${text}` === href) return `<${text}>`;
      if (text === href || text === raw) return `<${href}>`;
      return `[${text}](${destination(href)}${title?.trim() ? ` "${escapeTitle(title)}"` : ''})`;
    },
  };
};

/** Stands for a <br> inside a cell until the cell is joined into one line (a private-use character). */
const CELL_BREAK = '\uE000';

/** One table cell on one line: pipes escaped, line breaks as `<br>`, paragraphs as spaces. */
const cellTranslator = ({ visitor }: TranslatorContext): TranslatorConfig => ({
  surroundingNewlines: false,
  childTranslators: visitor.instance.tableCellTranslators,
  prefix: ' ',
  postfix: ' |',
  postprocess: ({ content }) =>
    content
      .replaceAll(CELL_BREAK, '<br>')
      .replace(/\s*\n\s*/g, ' ')
      .replace(/(?<!\\)\|/g, '\\|')
      .trim(),
});

const inlineCode: TranslatorConfig = {
  spaceIfRepeatingChar: true,
  noEscape: true,
  postprocess: ({ content }) => {
    const longest = Math.max(0, ...(content.match(/`+/g) ?? []).map((r) => r.length));
    const d = '`'.repeat(longest + 1);
    const pad = longest ? ' ' : '';
    return content.trim() ? `${d}${pad}${content.replace(/\s*\n\s*/g, ' ')}${pad}${d}` : PostProcessResult.RemoveNode;
  },
};

/** A heading on one line; an empty one (an icon, a dropped permalink) is dropped. */
const headingTranslator = ({ node }: TranslatorContext): TranslatorConfig => ({
  surroundingNewlines: 2,
  postprocess: ({ content }) => {
    const text = content.replace(/\s*\n+\s*/g, ' ').trim();
    return text ? `${'#'.repeat(Number(node.tagName.charAt(1)) || 1)} ${text}` : PostProcessResult.RemoveNode;
  },
});

const translators: TranslatorConfigObject = {
  'h1,h2,h3,h4,h5,h6': headingTranslator,
  pre: preTranslator,
  // <code> outside <pre> is inline code; inside <pre> the pre's code-block translators apply.
  code: inlineCode,
  img: imgTranslator,
  a: aTranslator,
};

const BLOCK_START = /^\s*(?:[-*+] |\d+[.)] |#|>|\||```|~~~)/;

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
    const fenceMark = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (inFence) {
      out.push(line);
      if (fenceMark && fenceMark[0] === inFence[0] && fenceMark.length >= inFence.length && line.trim() === fenceMark) inFence = null;
      continue;
    }
    if (fenceMark) {
      inFence = fenceMark;
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
    out.push(line);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

/** The library's table translator, with a blank line between the caption and the table (GFM). */
function tableWithCaption(base: TranslatorConfig | ((ctx: TranslatorContext) => TranslatorConfig)): (ctx: TranslatorContext) => TranslatorConfig {
  return (ctx) => {
    const cfg = typeof base === 'function' ? base(ctx) : base;
    const post = cfg.postprocess;
    if (!post) return cfg;
    return {
      ...cfg,
      postprocess: (p) => {
        const res = post(p);
        const caption = p.nodeMetadata.get(p.node)?.tableMeta?.caption;
        return typeof res === 'string' && caption && res.startsWith(`${caption}\n`) ? `${caption}\n\n${res.slice(caption.length + 1)}` : res;
      },
    };
  };
}

/** The library's list item translator, numbering from `<ol start>`. */
function listItemWithStart(base: TranslatorConfig | ((ctx: TranslatorContext) => TranslatorConfig)): (ctx: TranslatorContext) => TranslatorConfig {
  return (ctx) => {
    const cfg = typeof base === 'function' ? base(ctx) : base;
    const start = Number.parseInt(ctx.parent?.getAttribute?.('start') ?? '', 10);
    if (ctx.listKind !== 'OL' || !Number.isFinite(start) || start === 1 || ctx.listItemNumber === undefined || !cfg.prefix) return cfg;
    return { ...cfg, prefix: cfg.prefix.replace(/\d+\. $/, `${ctx.listItemNumber + start - 1}. `) };
  };
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
      ignore: ['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'canvas', 'object', 'embed', 'button', 'input', 'select', 'textarea'],
    },
    translators,
  );
  // Inside links and table cells the library uses its own collections: same rules there.
  c.aTagTranslators.set('img', imgTranslator);
  c.aTagTranslators.set('code', inlineCode);
  c.tableCellTranslators.set('img', imgTranslator);
  c.tableCellTranslators.set('a', aTranslator);
  c.tableCellTranslators.set('code', inlineCode);
  c.tableCellTranslators.set('br', { content: CELL_BREAK, recurse: false });
  // Paragraphs and lists in a cell: separated by a space (the cell postprocess joins lines).
  c.tableCellTranslators.set('p,div,li,ul,ol,h1,h2,h3,h4,h5,h6,blockquote', { surroundingNewlines: 1 });
  c.translators.set('table', tableWithCaption(c.translators.get('table')));
  c.translators.set('li', listItemWithStart(c.translators.get('li')));
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
    return tidyMarkdown(markdownService().translate(html));
  } finally {
    currentBase = 'http://invalid/';
  }
}
