/**
 * HTML of the selected content for the markdown converter: the selected nodes in document order,
 * without the subtrees earlier phases left out, links and images absolute against the page's base
 * URL (link fragments kept), lazy images' real source (`data-src`) when `src` is a placeholder,
 * and only the attributes markdown can use (so the converter parses less; a code block's language
 * as `data-lang` on its <pre>, no classes).
 */
import { codeLanguageOf } from './code-language.js';
import { BLOCK_TAGS, isElement, type DomNode } from './dom.js';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style']);
// Classes are not written (every attribute costs the converter time, classes several times the
// conversion CPU on class-heavy pages): a <pre> carries the language its markup names, on it, its
// <code> or up to two wrappers (code-language.ts), as `data-lang`.
const KEPT_ATTRS = new Set(['href', 'src', 'alt', 'title', 'colspan', 'rowspan', 'start', 'data-src']);

const attrOf = (n: DomNode | null | undefined) => (name: string) => n?.attribs?.[name];

/** The language of the code block `pre` is, or ''. */
function preLanguage(pre: DomNode): string {
  const code = pre.children?.find((c) => isElement(c) && c.name === 'code');
  const wrapper = pre.parent && isElement(pre.parent) ? pre.parent : null;
  const outer = wrapper?.parent && isElement(wrapper.parent) ? wrapper.parent : null;
  return codeLanguageOf([
    { attr: attrOf(code), bare: true },
    { attr: attrOf(pre), bare: true },
    { attr: attrOf(wrapper), bare: false },
    { attr: attrOf(outer), bare: false },
  ]);
}

const escapeText = (s: string) => s.replace(/[&<>]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;'));
const escapeAttr = (s: string) => s.replace(/[&"]/g, (c) => (c === '&' ? '&amp;' : '&quot;'));

function absolute(raw: string, base: string): string {
  const v = raw.trim();
  if (!v || /^(?:data|mailto|tel|javascript):/i.test(v)) return v;
  try {
    return new URL(v, base).href;
  } catch {
    return v;
  }
}

export interface Serialized {
  html: string;
  /** Characters of text written (whitespace at the ends of text nodes not counted). */
  textLength: number;
}

/** Which nodes to leave out (with their subtrees). */
export type Skip = (n: DomNode) => boolean;

/** Serialize `nodes` (and their subtrees) leaving out every node `skip` names. */
export function serializeContent(nodes: DomNode[], skip: Skip, base: string): Serialized {
  const out: string[] = [];
  let textLength = 0;
  // Inside <pre> text is verbatim; outside, text right after an inline element that starts on a
  // new line keeps a space there (the converter drops a leading line break: `<a>x</a>\ny` -> "xy").
  let pre = 0;
  let afterInline = false;
  const write = (n: DomNode) => {
    if (n.type === 'text') {
      let data = n.data ?? '';
      if (afterInline && pre === 0 && data.charCodeAt(0) === 10) data = ` ${data}`;
      afterInline = false;
      out.push(escapeText(data));
      textLength += data.trim().length;
      return;
    }
    if (!isElement(n)) {
      if (n.type === 'root') for (const c of n.children ?? []) if (!skip(c)) write(c);
      return;
    }
    const name = n.name ?? 'div';
    if (RAW_TEXT.has(name)) return;
    afterInline = false;
    out.push('<', name);
    const a = n.attribs ?? {};
    for (const key in a) {
      if (!KEPT_ATTRS.has(key)) continue;
      let v = a[key];
      if (key === 'href' && name === 'a') v = absolute(v, base);
      else if (key === 'src') {
        if ((!v.trim() || v.startsWith('data:')) && a['data-src']) v = a['data-src'];
        v = absolute(v, base);
      }
      out.push(' ', key, '="', escapeAttr(v), '"');
    }
    if (name === 'pre') {
      const lang = preLanguage(n);
      if (lang) out.push(' data-lang="', escapeAttr(lang), '"');
    }
    out.push('>');
    if (VOID.has(name)) return;
    if (name === 'pre') pre++;
    for (const c of n.children ?? []) if (!skip(c)) write(c);
    if (name === 'pre') pre--;
    out.push('</', name, '>');
    afterInline = !BLOCK_TAGS.has(name);
  };
  for (const n of nodes) if (!skip(n)) write(n);
  return { html: out.join(''), textLength };
}
