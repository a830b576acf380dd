/**
 * What a forum thread's main content leaves out of its posts when it is written (serialize.ts;
 * the selection of the posts is not changed by it):
 * - quotes of other posts: a reply that quotes an earlier post repeats it (the quoted post is the
 *   thread's already, or on another of its pages), and what the reply adds is its own text.
 *   Quotes of anything else (an email, an article, a paper) stay: they carry no sign of quoting a
 *   post. A reply's preview of the post it answers (a block clamped to a line by style) too;
 * - a post's furniture written as its own small block: its number, counters, the poster's status
 *   and stats, its action links.
 */
import { HEADING_TAGS, siblingIndex, type DomNode } from './dom.js';

// A quote box's class token: XenForo's `bbCodeBlock--quote`, Invision's `ipsQuote`, vBulletin's
// `bbcode_quote`, `quote`, `quotebox`. Not `blockquote`, a styling class of any quotation, and
// not a name that only contains the word: XenForo 1 writes each post's own text in a
// `<blockquote class="messageText SelectQuoteContainer">`.
const QUOTE_TOKEN = /^(?:[a-z]+[-_]{0,2})?quote(?:[-_]?(?:box|block|wrap|wrapper))?$/i;
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
  const before = previousElement(el);
  const cite = citation(el) ?? (before && citesBy(before) ? before : undefined);
  return !!cite && CITATION.test(textOf(cite));
}

// A class that clamps a block's text to a line or two by style (`line-clamp-1`, `text-truncate`).
const CLAMPED = /^(?:line-clamp-[12]|text-truncate|truncate)$/;
// Text beyond a line: a clamped block this long shows a part of it only.
const MIN_PREVIEW_CHARS = 80;

/**
 * Whether `el` is a reply's preview of the post it answers: a block of a post's length clamped to a
 * line or two by its class (NodeBB writes the parent post's whole text in every reply so). A post's
 * own text is never shown a line at a time.
 */
export function previewsAPost(el: DomNode): boolean {
  const cls = el.attribs?.class;
  if (!cls || !cls.split(/\s+/).some((t) => CLAMPED.test(t))) return false;
  return textOf(el, MIN_PREVIEW_CHARS).trim().length >= MIN_PREVIEW_CHARS;
}

/** A `<cite>` or a heading: where a quote names its author. */
const citesBy = (el: DomNode) => el.name === 'cite' || HEADING_TAGS.has(el.name ?? '');

const quoteClass = (el: DomNode) => (el.attribs?.class ?? '').split(/\s+/).some((t) => QUOTE_TOKEN.test(t) && !STYLE_TOKEN.test(t));

function previousElement(el: DomNode): DomNode | undefined {
  const siblings = el.parent?.children ?? [];
  for (let i = siblingIndex(el) - 1; i >= 0; i--) if (siblings[i]!.type === 'tag') return siblings[i];
  return undefined;
}

/** The `<cite>` or heading among the first elements of `el` (two levels down at most). */
function citation(el: DomNode, depth = 0): DomNode | undefined {
  const first = (el.children ?? []).find((c) => c.type === 'tag');
  if (!first) return undefined;
  if (citesBy(first)) return first;
  return depth < 2 ? citation(first, depth + 1) : undefined;
}

/**
 * The start of `n`'s text, white space collapsed: its text nodes in order until more than `max`
 * characters are read (so a text of `max` characters or fewer is the whole of it).
 */
function textOf(n: DomNode, max = 200): string {
  let s = '';
  for (const c of n.children ?? []) {
    if (s.trim().length > max) break;
    s += c.type === 'text' ? (c.data ?? '').replace(/\s+/g, ' ') : c.type === 'tag' ? textOf(c, max) : '';
  }
  return s;
}

// A post's furniture by its words: its number ("#12"), a bare count (reactions), the poster's
// status and stats ("Offline", "Posts: 1,204", "Registered: 2019-04-02", "29,553 posts", "518
// helpful votes", "Trophy Points:"), its action links ("Reply", "Quote", "Report inappropriate
// content"), and the thread's locked notice ("Not open for further replies.").
const POST_FURNITURE = new RegExp(
  [
    '^#\\s?\\d+$', '^[\\d,.]+k?$', '^(?:online|offline|original post|former member)$',
    '^(?:reply|quote|report|like|share|permalink|report inappropriate content|report post|multi-?quote|reply with quote)$',
    // The mark of the answer the asker accepted (Microsoft Q&A's, Khoros's, vBulletin's).
    '^(?:accepted (?:answer|solution)|answer accepted(?: by (?:the )?(?:question )?(?:author|asker|op))?|best answer|solved!?|view solution in original post)$',
    '^(?:registered|joined|join date|messages|posts|post count|trophy points|likes received|reaction score|reputation|points|solutions)\\s*:\\s*[\\w ,./-]*$',
    '^[\\d,.]+k?\\s+(?:posts?|messages?|helpful votes?|reactions?|likes?|points|replies|solutions?)$',
    // A Q&A post's dates ("answered Feb 4, 2014 at 13:27") and its poster's reputation and badges.
    '^(?:asked|answered|edited|modified)\\s+(?:[a-z]{3,9}\\s+\\d|\\d|yesterday|today)[\\w ,:\'.-]*$',
    '^[\\d,.]+k?\\s*(?:\\d+\\s*(?:gold|silver|bronze)\\s+badges?\\s*)+$',
    // The thread's status (XenForo's and vBulletin's locked threads).
    '^(?:not open for further replies|this (?:thread|topic) (?:is|has been) (?:locked|closed)(?: to (?:new|further) replies)?|thread (?:locked|closed))\\.?$',
  ].join('|'),
  'i',
);
// A whole block's text only: 60 characters at most.
const MAX_FURNITURE_CHARS = 60;
const FURNITURE_BLOCKS = new Set(['div', 'li', 'dd', 'dt', 'p', 'span', 'a', 'ul', 'dl', 'section', 'footer', 'header']);

// A post's edit notice: "Last edited by Minoa on Tue Aug 27, 2019 10:03 pm, edited 1 time in
// total." (phpBB), "Last edited by sam; 03-05-2024 at 10:12 AM." (vBulletin), "Last edited: Mar 5,
// 2024" (XenForo), "Last modified …". A line of its own, up to 160 characters.
const EDIT_NOTICE = /^last (?:edited|modified|updated)(?: by \S[^\n]{0,60}?)?\s*(?:[:;,]|\bon\b|\bat\b)\s*\S[^\n]*$/i;
const MAX_EDIT_NOTICE_CHARS = 160;

// Who liked a post (vBulletin's, Invision's): "WiSK and JapesUK like this.", "A, B, C and 4 others
// like this.", "Ken likes this." Names are single tokens without commas (so the match is linear); "I
// like this." is a reply, not a count.
const LIKED_BY = /^(?:[^\s,]+(?:,\s*[^\s,]+)*\s+and\s+(?:\d+\s+others?|[^\s,]+)\s+like\s+this|[^\s,]+\s+likes\s+this)(?:\s+post)?\.?$/i;

/** Whether `el` is a block whose whole text is one line of a post's furniture (see POST_FURNITURE, EDIT_NOTICE). */
export function postFurniture(el: DomNode): boolean {
  if (!FURNITURE_BLOCKS.has(el.name ?? '')) return false;
  const text = textOf(el, MAX_EDIT_NOTICE_CHARS).trim();
  if (!text) return false;
  if (text.length <= MAX_FURNITURE_CHARS && POST_FURNITURE.test(text)) return true;
  return text.length <= MAX_EDIT_NOTICE_CHARS && (EDIT_NOTICE.test(text) || LIKED_BY.test(text));
}
