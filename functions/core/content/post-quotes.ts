/**
 * Quotes of other posts on a forum thread. A reply that quotes an earlier post repeats it: the
 * quoted post is the thread's already (or on another of its pages), and what the reply adds is
 * its own text. Main content of a thread leaves such quotes out (serialize.ts); quotes of anything
 * else (an email, an article, a paper) stay: they carry no sign of quoting a post.
 */
import type { DomNode } from './dom.js';

// A quote box's class token: XenForo's `bbCodeBlock--quote`, Invision's `ipsQuote`, vBulletin's
// `bbcode_quote`, `quote`. Not `blockquote`, a styling class of any quotation.
const QUOTE_TOKEN = /quote/i;
const STYLE_TOKEN = /^blockquote/i;
// A citation that names a post's author: "Ana wrote:", "Ana said:" (phpBB adds a link and the date after it).
const CITATION = /(?:wrote|said|schrieb|a écrit|escribió|ha scritto|napisał)\s*:/i;

/** Whether `el` is a `<blockquote>` (or the box around one) quoting a post (by its markup: see the module comment). */
export function quotesAPost(el: DomNode): boolean {
  // A quote box around the quote and its citation (FluxBB: `div.quotebox > cite + blockquote`).
  if (el.name === 'div') return quoteClass(el) && (el.children ?? []).some((c) => c.name === 'blockquote');
  if (el.name !== 'blockquote') return false;
  const a = el.attribs ?? {};
  if (a['data-quote'] !== undefined || a['data-ipsquote'] !== undefined || quoteClass(el)) return true;
  // Its citation inside it, or just before it (FluxBB: `<cite>Ana wrote:</cite><blockquote>`).
  const cite = citation(el) ?? previousElement(el);
  return cite?.name === 'cite' || /^h[1-6]$/.test(cite?.name ?? '') ? CITATION.test(textOf(cite!)) : false;
}

const quoteClass = (el: DomNode) => (el.attribs?.class ?? '').split(/\s+/).some((t) => QUOTE_TOKEN.test(t) && !STYLE_TOKEN.test(t));

function previousElement(el: DomNode): DomNode | undefined {
  const siblings = el.parent?.children ?? [];
  for (let i = siblings.indexOf(el) - 1; i >= 0; i--) if (siblings[i]!.type === 'tag') return siblings[i];
  return undefined;
}

/** The `<cite>` or heading among the first elements of `el` (two levels down at most). */
function citation(el: DomNode, depth = 0): DomNode | undefined {
  const first = (el.children ?? []).find((c) => c.type === 'tag');
  if (!first) return undefined;
  if (first.name === 'cite' || /^h[1-6]$/.test(first.name ?? '')) return first;
  return depth < 2 ? citation(first, depth + 1) : undefined;
}

function textOf(n: DomNode): string {
  let s = '';
  for (const c of n.children ?? []) {
    if (s.length > 200) break;
    s += c.type === 'text' ? (c.data ?? '') : textOf(c);
  }
  return s;
}
