/**
 * HTML of the selected content for the markdown converter: the selected nodes in document order,
 * without the subtrees earlier phases left out, links and images absolute against the page's base
 * URL (link fragments kept), lazy images' real source (`data-src`) when `src` is a placeholder,
 * and only the attributes markdown can use (so the converter parses less; of classes, only those
 * naming a code language).
 */
import { isElement, type DomNode } from './dom.js';

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const RAW_TEXT = new Set(['script', 'style']);
const KEPT_ATTRS = new Set(['href', 'src', 'alt', 'title', 'class', 'colspan', 'rowspan', 'start', 'data-lang', 'data-language', 'data-src']);
// Of a class list, only the words that name a code language survive (`language-python`,
// `lang-js`, `highlight-source-go`, `hljs`, `brush: sql`): the converter reads them, and every
// other class costs it time (several times the conversion CPU on class-heavy pages).
const LANGUAGE_WORD = /lang|highlight|hljs|brush|source/i;
function languageClasses(v: string): string {
  if (!LANGUAGE_WORD.test(v)) return '';
  return v.split(/\s+/).filter((w) => LANGUAGE_WORD.test(w)).join(' ');
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
  const write = (n: DomNode) => {
    if (n.type === 'text') {
      const data = n.data ?? '';
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
    out.push('<', name);
    const a = n.attribs ?? {};
    for (const key in a) {
      if (!KEPT_ATTRS.has(key)) continue;
      let v = a[key];
      if (key === 'class') {
        v = languageClasses(v);
        if (!v) continue;
      } else if (key === 'href' && name === 'a') v = absolute(v, base);
      else if (key === 'src') {
        if ((!v.trim() || v.startsWith('data:')) && a['data-src']) v = a['data-src'];
        v = absolute(v, base);
      }
      out.push(' ', key, '="', escapeAttr(v), '"');
    }
    out.push('>');
    if (VOID.has(name)) return;
    for (const c of n.children ?? []) if (!skip(c)) write(c);
    out.push('</', name, '>');
  };
  for (const n of nodes) if (!skip(n)) write(n);
  return { html: out.join(''), textLength };
}
