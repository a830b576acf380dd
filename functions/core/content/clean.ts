/**
 * Phase 4, clean: boilerplate left inside the selected content. Walks the selection once and marks
 * blocks to leave out, Readability-style ("clean conditionally"): a container whose class names
 * furniture and scores below zero, or that has few commas and looks like a link list, a form, an
 * image strip, an embed or an empty shell. Kept whatever they look like: code (`pre`, `code`), data
 * tables (header cells, a caption, or a real grid), and records — same-kind siblings that together
 * hold most of the content (listing items, posts), since a listing is link-dense by nature.
 * Also out: advertising labels, and headings left dangling at the end of the content.
 */
import { BLOCK_TAGS, HEADING_TAGS, isElement, squash, type DomNode } from './dom.js';
import { classWeight, linkDensity, type NodeStats, type Scored } from './score.js';
import { keptChildren, shallowSignature, signature, textOf } from './select.js';
import { MAX_BOILERPLATE_CHARS, boilerplateKind, introducesRelated, isLabelOnly, isSectionHeading, isSignupPrompt } from './boilerplate-text.js';
import { opensRelatedSection } from './related-sections.js';
import { MAX_FURNITURE_CHARS, docFurnitureKind, isDocumentation, tocAfter } from './doc-furniture.js';
import { dropClosingBio } from './author-bio.js';
import { cardsOfProse } from './prose-cards.js';
import { PRICE } from './page-kind.js';

/** A card's text is at most this long (a grid's tile, a listing's entry). */
const MAX_CARD_CHARS = 600;
/** A form this short (its labels, a consent line) is a form to fill in, not content. */
const MAX_FORM_CHARS = 400;

/**
 * A small form: a sign-up, notify-me, booking or newsletter box, a cart's options (its controls and
 * their labels, a thank-you and an error line). Not the content; a page wrapped whole in one form
 * (ASP.NET) has far more text.
 */
export function smallForm(n: DomNode, scored: Scored): boolean {
  if (n.name !== 'form') return false;
  const s = scored.stats.get(n);
  return !!s && s.inputs > 0 && s.text <= MAX_FORM_CHARS && !pricedForm(n, scored);
}

/**
 * An item page's buy form that shows the price outside its controls (Lightspeed's
 * `product_configure_form` holds the variant select, the price and the short description, then
 * quantity and the cart button): the item's summary, cleaned inside rather than dropped as a form.
 * A variant's price in its option ("Black - € 89,95") is a control's.
 */
function pricedForm(n: DomNode, scored: Scored): boolean {
  if (!scored.itemPage || n.name !== 'form') return false;
  let budget = MAX_FORM_WALK;
  const find = (el: DomNode): boolean => {
    for (const c of el.children ?? []) {
      if (--budget < 0) return false;
      if (c.type === 'text') {
        const d = c.data ?? '';
        if (d.length <= MAX_PRICE_LINE && PRICE.test(d)) return true;
      } else if (isElement(c) && !scored.dropped.has(c) && !FORM_CONTROLS.has(c.name ?? '') && find(c)) return true;
    }
    return false;
  };
  return find(n);
}
const FORM_CONTROLS = new Set(['select', 'option', 'optgroup', 'datalist', 'button', 'label', 'textarea']);
const MAX_FORM_WALK = 500;
const MAX_PRICE_LINE = 40;
const CONDITIONAL = new Set(['div', 'section', 'ul', 'ol', 'dl', 'table', 'form', 'fieldset', 'figure', 'header', 'center', 'p']);
const KEEP_WHOLE = new Set(['pre', 'code', 'samp', 'kbd', 'math']);

/**
 * Whether `el` holds a title heading (an `<h1>` with text, not a link: a logo written as a heading
 * is a link home), at most MAX_TITLE_DEPTH levels down.
 */
function holdsTitle(el: DomNode, scored: Scored): boolean {
  const find = (n: DomNode, depth: number): boolean => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || scored.dropped.has(c)) continue;
      if (c.name === 'h1') {
        const st = scored.stats.get(c);
        if (st && st.text > 0 && st.link < st.text * 0.5) return true;
      } else if (c.name !== 'a' && depth > 1 && find(c, depth - 1)) return true;
    }
    return false;
  };
  return find(el, MAX_TITLE_DEPTH);
}
const MAX_TITLE_DEPTH = 6;

/** Whether a table holds data (kept) rather than page layout. */
function isDataTable(el: DomNode, scored: Scored): boolean {
  const a = el.attribs ?? {};
  if (a.role === 'presentation' || a.datatable === '0') return false;
  if (a.summary || a.role === 'table' || a.role === 'grid') return true;
  let rows = 0;
  let cols = 0;
  let header = false;
  let nested = false;
  const visit = (n: DomNode) => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || scored.dropped.has(c)) continue;
      switch (c.name) {
        case 'caption':
        case 'thead':
        case 'tfoot':
        case 'th':
        case 'colgroup':
          header = true;
          break;
        case 'table':
          nested = true;
          continue;
        case 'tr': {
          rows++;
          const cells = (c.children ?? []).filter((x) => x.name === 'td' || x.name === 'th');
          cols = Math.max(cols, cells.length);
          break;
        }
      }
      visit(c);
    }
  };
  visit(el);
  if (nested) return false;
  if (header) return true;
  return rows >= 10 || cols > 4 || rows * cols > 10 || (rows >= 2 && cols === 2);
}

/** The table `el` only wraps (through single-child wrappers, a caption beside it aside), if any. */
function wrappedTable(el: DomNode, scored: Scored): DomNode | undefined {
  let n = el;
  for (let depth = 0; depth < 3; depth++) {
    let only: DomNode | undefined;
    for (const c of n.children ?? []) {
      if (c.type === 'text' ? !(c.data ?? '').trim() : !isElement(c) || scored.dropped.has(c) || c.name === 'figcaption') continue;
      if (only) return undefined;
      only = c;
    }
    if (!only) return undefined;
    if (only.name === 'table') return only;
    n = only;
  }
  return undefined;
}

/**
 * Whether a container inside the content is boilerplate. `weight`: its class weight read without
 * utility classes (a landing page's testimonials section styled `overflow-hidden` is no hidden
 * furniture). WCXB development pages: tune half 5 up (a landing page 0.833 -> 0.864, a CDN's 0.870
 * -> 0.946), 3 down (a product page's feature sections its reference leaves out, 0.743 -> 0.453; a
 * home page whose longer selection no longer gives way to its sections, 0.994 -> 0.869), 0.8900 ->
 * 0.8897; check half 6 up (0.646 -> 0.915, 0.781 -> 0.905), 1 down, 0.8850 -> 0.8860. Scoring
 * without them too was no better (check half 1 up, 1 down by 0.145).
 */
function isBoilerplate(el: DomNode, s: NodeStats, weight: number): boolean {
  const name = el.name ?? '';
  // Code is content whatever surrounds it (a copy button, a tab bar of languages).
  if (s.code > 0 && s.code >= (s.text - s.code) * 0.5) return false;
  if (weight < 0 && s.commas < 10) return true;
  if (s.commas >= 10) return false;
  const ld = linkDensity(s);
  if (name === 'p') return s.text > 0 && s.text < 200 && ld > 0.8 && weight < 25;
  const isList = name === 'ul' || name === 'ol' || name === 'dl' || (s.text > 0 && s.listText / s.text > 0.9);
  if (s.text === 0 && s.images === 0) return true;
  // Paragraphs: <p>s, or div-soup blocks of text (a <br>-separated article is one block).
  const paragraphs = Math.max(s.paragraphs, s.blocks);
  if (s.images > 1 && paragraphs / s.images < 0.5 && s.text < 200 * s.images && name !== 'figure') return true;
  if (s.inputs > Math.floor(paragraphs / 3) && s.text < 200 * Math.max(1, s.inputs)) return true;
  const headingDensity = s.text ? s.headingText / s.text : 0;
  if (!isList && headingDensity < 0.9 && s.text < 25 && (s.images === 0 || s.images > 2) && ld > 0) return true;
  if (!isList && weight < 25 && ld > 0.2 + 0.1 * Math.min(1, s.text / 2000)) return true;
  if (isList && ld > 0.5 && weight < 25) return true;
  if (weight >= 25 && ld > 0.5) return true;
  if ((s.embeds === 1 && s.text < 75) || s.embeds > 1) return true;
  return false;
}

// A block whose whole text is an advertising label ("Advertisement", "Anzeige", "Реклама"…).
const AD_LABEL = /^(?:advertisement|advertising|advert|ads?|sponsored|anzeige|werbung|publicidad|publicité|pubblicità|reklama|реклама|広告|광고|广告)(?:\s*[-–—:·]?\s*(?:continue reading below|scroll to continue(?: with content)?|(?:story|article) continues below))?$|^(?:story|article) continues below$/i;

const shortText = (el: DomNode, scored: Scored): string => squash(textOf(el, scored).join(''));

/**
 * A block that only prompts the reader, told by its words: a share prompt, a newsletter's sign-up
 * prompt or a legal line (boilerplate-text.ts), or a heading that is one of the first two. For a
 * page read section by section (main-content.ts), where the cleaner's line rules do not run.
 */
export function promptLine(n: DomNode, scored: Scored): boolean {
  const name = n.name ?? '';
  if (!BLOCK_TAGS.has(name) || name === 'h1') return false;
  const s = scored.stats.get(n);
  // Not a card with its picture ("Share this project with your classmates" is a template's blurb).
  if (!s || s.text === 0 || s.text > MAX_BOILERPLATE_CHARS || s.blocks > 1 || s.images > 0) return false;
  if (HEADING_TAGS.has(name)) {
    const words = shortText(n, scored);
    return isSignupPrompt(words) || boilerplateKind(words, 0) === 'share';
  }
  const kind = boilerplateKind(lineText(n, scored).join(''), linkDensity(s));
  return kind === 'share' || kind === 'signup' || kind === 'legal';
}

/** Text of a short block with its line breaks (`<br>`, block children) kept as newlines: a label on a line of its own labels the next line. */
function lineText(el: DomNode, scored: Scored, out: string[] = []): string[] {
  for (const c of el.children ?? []) {
    if (c.type === 'text') out.push(c.data ?? '');
    else if (c.name === 'br') out.push('\n');
    else if (isElement(c) && !scored.dropped.has(c)) {
      const block = BLOCK_TAGS.has(c.name ?? '');
      if (block) out.push('\n');
      lineText(c, scored, out);
      if (block) out.push('\n');
    }
  }
  return out;
}

/** Characters of the selection that must remain beside a related-stories section for it to go. */
const MIN_LEFT = 200;

// Microdata of the post's own metadata (its date, author, publisher): a line about the story, not of it.
const META_ITEMPROP = /(?:^|\s)(?:datePublished|dateModified|dateCreated|uploadDate|author|creator|publisher)(?:\s|$)/;
// Cells of a grid (a timetable's dates are its content).
const CELLS = new Set(['li', 'td', 'th', 'dt', 'dd', 'tr', 'caption']);

/** Share of the selection's prose (paragraph-like blocks, score.ts) that comes before `target` in document order. */
function proseBefore(nodes: DomNode[], target: DomNode, scored: Scored): number {
  let before = 0;
  let found = false;
  const walk = (el: DomNode): void => {
    for (const c of el.children ?? []) {
      if (found) return;
      if (c === target) {
        found = true;
        return;
      }
      const s = isElement(c) ? scored.stats.get(c) : undefined;
      if (!s || scored.dropped.has(c)) continue;
      // A block whose prose is all its own is counted whole; a container is walked into.
      if (s.prose > 0 && s.blocks <= 1) before += s.prose;
      else if (s.prose > 0) walk(c);
    }
  };
  for (const n of nodes) {
    if (n === target) break;
    walk(n);
    if (found) break;
  }
  const total = nodes.reduce((t, n) => t + (scored.stats.get(n)?.prose ?? 0), 0);
  return total > 0 ? before / total : 0;
}

/** Whether `el` sits in a quotation (an embedded post). */
function quoted(el: DomNode): boolean {
  let level = 0;
  for (let n = el.parent; n && n.type !== 'root' && level < 12; n = n.parent, level++) if (n.name === 'blockquote' || n.name === 'q') return true;
  return false;
}

/**
 * A heading with nothing after it closes the content on a dangling title ("Tell us what you
 * think", "Related stories" whose list was removed): drop headings at the end of the selection.
 */
function dropTrailingHeadings(el: DomNode, scored: Scored, removed: Set<DomNode>): void {
  const kids = keptChildren(el, scored).filter((c) => !removed.has(c) && (scored.stats.get(c)?.text ?? 0) > 0);
  for (let i = kids.length - 1; i >= 0; i--) {
    const c = kids[i];
    if (HEADING_TAGS.has(c.name ?? '')) {
      removed.add(c);
      continue;
    }
    if (c.name !== 'p' && !KEEP_WHOLE.has(c.name ?? '')) dropTrailingHeadings(c, scored, removed);
    return;
  }
}

/**
 * A list (`siblings[i]`) right under a heading the selection keeps, the whole of that heading's section: a story's
 * "References & Sources", "Further reading" or "Resources" links. Without it the heading would
 * stand alone, its section cut as a block of links.
 */
function headedList(el: DomNode, i: number, siblings: DomNode[], removed: ReadonlySet<DomNode>): boolean {
  if (el.name !== 'ul' && el.name !== 'ol') return false;
  const prev = i > 0 ? siblings[i - 1] : undefined;
  if (!prev || !HEADING_TAGS.has(prev.name ?? '') || prev.name === 'h1' || removed.has(prev)) return false;
  // The section ends after it: the next heading, a rule or the end.
  const next = siblings[i + 1];
  return !next || HEADING_TAGS.has(next.name ?? '') || next.name === 'hr';
}

/**
 * A list a sentence introduces (`For more information, see:` then links to the overview and the
 * command reference; "Buying options:" then the shops): the sentence's own words, however many
 * links. On any page unless the sentence points to other pages ("If you liked this post you might
 * also like:"); on a documentation page whatever it says. A list one of whose items introduces a
 * list of its own ("Plan to spend: $15", "Buying options:" and the shops' links) counts too.
 * WCXB development pages: tune 0.8898 -> 0.8900 (3 up), check 0.8846 -> 0.8850 (4 up), none down.
 */
function introducedList(el: DomNode, i: number, siblings: DomNode[], scored: Scored): boolean {
  if (el.name !== 'ul' && el.name !== 'ol') return false;
  if (introducedBy(el, siblings[i - 1], scored)) return true;
  for (const li of el.children ?? []) {
    if (li.name !== 'li') continue;
    let prev: DomNode | undefined;
    for (const c of li.children ?? []) {
      if (c.type !== 'tag') continue;
      if ((c.name === 'ul' || c.name === 'ol') && introducedBy(c, prev, scored)) return true;
      prev = c;
    }
  }
  return false;
}

/** Whether `prev` (the block just before `el`) is a paragraph ending with a colon that does not point to other pages. */
function introducedBy(el: DomNode, prev: DomNode | undefined, scored: Scored): boolean {
  if (!prev || prev.name !== 'p') return false;
  const text = textOf(prev, scored).join('').trimEnd();
  return text.endsWith(':') && (isDocumentation(el) || !introducesRelated(text));
}

/** Longest line (characters) the repeated-structure signal judges. */
const MAX_REPEATED_LINE = 100;

/**
 * Repeated structure: blocks of the selection that are short lines of links whose exact text
 * occurs twice or more in it. Content does not repeat itself word for word; share bars, pagers
 * and "back to top" links do. Kept: table cells and list items (a grid repeats its labels).
 */
function repeatedLinkLines(nodes: DomNode[], scored: Scored): Set<DomNode> {
  const byText = new Map<string, DomNode[]>();
  const visit = (el: DomNode) => {
    for (const c of keptChildren(el, scored)) {
      const s = scored.stats.get(c)!;
      if (KEEP_WHOLE.has(c.name ?? '') || s.text === 0) continue;
      if (CONDITIONAL.has(c.name ?? '') && c.name !== 'table' && s.text <= MAX_REPEATED_LINE && linkDensity(s) >= 0.5) {
        const key = squash(textOf(c, scored).join(''));
        const g = byText.get(key);
        if (g) g.push(c);
        else byText.set(key, [c]);
        continue;
      }
      if (s.text > MAX_REPEATED_LINE) visit(c);
    }
  };
  for (const n of nodes) visit(n);
  const out = new Set<DomNode>();
  for (const g of byText.values()) if (g.length >= 2) for (const c of g) out.add(c);
  return out;
}

/**
 * The links under a related-stories heading: the siblings after it, up to the next heading,
 * while they are mostly links (or hold no text). Not when they are nearly all the selection holds
 * (a topic page whose one section of story cards is headed "Latest news"), as for a section.
 */
function dropSectionAfter(heading: DomNode, siblings: DomNode[], scored: Scored, removed: Set<DomNode>, total: number): void {
  const after: DomNode[] = [];
  let text = scored.stats.get(heading)?.text ?? 0;
  for (let i = siblings.indexOf(heading) + 1; i < siblings.length; i++) {
    const c = siblings[i];
    if (HEADING_TAGS.has(c.name ?? '')) break;
    const s = scored.stats.get(c);
    if (!s || (s.text > 0 && linkDensity(s) < 0.5)) break;
    after.push(c);
    text += s.text;
  }
  if (total - text < MIN_LEFT) return;
  for (const c of after) removed.add(c);
}

/** A table of contents (its label and lists) holding this share of the selection's text is the page's content. */
const TOC_PAGE_SHARE = 0.4;

/** Mark boilerplate inside the selected nodes; returns the marked elements. */
export function cleanSelection(nodes: DomNode[], scored: Scored): Set<DomNode> {
  const removed = new Set<DomNode>();
  const total = nodes.reduce((n, el) => n + (scored.stats.get(el)?.text ?? 0), 0);

  /** A grid's card: short, linked and pictured. */
  const card = (c: DomNode) => {
    const cs = scored.stats.get(c);
    return !!cs && cs.text <= MAX_CARD_CHARS && cs.link > 0 && cs.images > 0;
  };

  /** Children that are records: a same-kind group holding half of the content or more. */
  const recordsOf = (children: DomNode[]): Set<DomNode> | undefined => {
    if (children.length < 2) return undefined;
    const groups = new Map<string, DomNode[]>();
    for (const c of children) {
      const sig = signature(c);
      // Paragraphs are prose, not records (a run of same-class <p> is the article itself).
      if (c.name === 'p') continue;
      const g = groups.get(sig);
      if (g) g.push(c);
      else groups.set(sig, [c]);
    }
    let out: Set<DomNode> | undefined;
    for (const g of groups.values()) {
      // Three alike, or a pair of alike linked blocks alone in their parent (a grid of two cards:
      // one must not be cleaned as furniture while its twin stays).
      const cardPair = g.length === 2 && children.length === 2 && g.every((c) => linkDensity(scored.stats.get(c)!) >= 0.3);
      if (g.length < 3 && !cardPair) continue;
      const text = g.reduce((n, c) => n + (scored.stats.get(c)?.text ?? 0), 0);
      if (text < total * 0.5) continue;
      out ??= new Set();
      for (const c of g) out.add(c);
      // A thread's post alike with the others by its own tag and class is one too: the first
      // post may open otherwise (its title or a notice before the text; a list of links in it is
      // still a post). So is a grid's card that opens without the badge its neighbours open with
      // (a store's `div.offer-box`, "Promocja" over some tiles: the others were cleaned as forms).
      // Cards only, off a thread: short, linked and pictured (sections of a reference page alike
      // by their own class stay cleaned one by one, MDN's "Help improve MDN" among them).
      if (g[0]!.attribs?.class?.trim() && (scored.commentsAreContent || g.every(card))) {
        const own = shallowSignature(g[0]!);
        for (const c of children) if (!out.has(c) && shallowSignature(c) === own && (scored.commentsAreContent || card(c))) out.add(c);
      }
    }
    return out;
  };

  /** Related sections anywhere inside `el`, whatever else it holds (see the record case below). */
  const dropRelated = (el: DomNode) => {
    for (const c of keptChildren(el, scored)) {
      if (c.name === 'p' || HEADING_TAGS.has(c.name ?? '')) continue;
      if (total - (scored.stats.get(c)?.text ?? 0) >= MIN_LEFT && opensRelatedSection(c, scored.commentsAreContent)) removed.add(c);
      else dropRelated(c);
    }
  };

  /**
   * Small forms anywhere inside `el` (a landing page's section alike with the others that ends in
   * its booking form: the form's labels are no content).
   */
  const dropForms = (el: DomNode) => {
    for (const c of keptChildren(el, scored)) {
      if (smallForm(c, scored)) removed.add(c);
      else if (c.name !== 'p' && !HEADING_TAGS.has(c.name ?? '')) dropForms(c);
    }
  };

  const repeated = repeatedLinkLines(nodes, scored);
  const datelines: DomNode[] = [];
  // Tables of contents that are the page's content (see the documentation furniture below).
  const contents = new Set<DomNode>();

  const visit = (el: DomNode) => {
    const children = keptChildren(el, scored);
    const records = recordsOf(children);
    for (let at = 0; at < children.length; at++) {
      const c = children[at]!;
      const name = c.name ?? '';
      if (KEEP_WHOLE.has(name) || contents.has(c)) continue;
      const s = scored.stats.get(c)!;
      // A record is kept whole: a listing item's title link is its content. A record holding a
      // good part of the content is no card (an item page's panels, laid out alike): the related
      // sections inside it still go ("Similar items" under the description).
      if (records?.has(c)) {
        // On a thread, not a block alike with the posts (XenForo writes its every box as a
        // `div.block`) that is headed as a related section ("Discussions similaires"), or that only
        // asks the reader to log in or sign up ("You must log in or register to reply here.").
        // Elsewhere a record headed "See also" is a reference page's own section.
        if (scored.commentsAreContent && ((total - s.text >= MIN_LEFT && opensRelatedSection(c, true)) || (s.text <= MAX_BOILERPLATE_CHARS && s.text < total * 0.5 && boilerplateKind(shortText(c, scored), linkDensity(s)) === 'signup'))) {
          removed.add(c);
          continue;
        }
        if (s.text >= total * 0.25) dropRelated(c);
        if (s.inputs > 0) dropForms(c);
        continue;
      }
      if (s.text > 0 && s.text <= 60 && s.link === 0 && AD_LABEL.test(shortText(c, scored))) {
        removed.add(c);
        continue;
      }
      // The same short line of links more than once (a share bar after every picture, pager links above and below).
      if (repeated.has(c)) {
        removed.add(c);
        continue;
      }
      // A related-stories section inside the story (related-sections.ts): its heading and teasers
      // go together, even when the teasers outweigh a short story (not when nothing else is left).
      if (total - s.text >= MIN_LEFT && opensRelatedSection(c, scored.commentsAreContent)) {
        removed.add(c);
        continue;
      }
      // The post's own date, author or publisher, marked up as such.
      if (s.text > 0 && s.text <= 200 && s.blocks <= 1 && META_ITEMPROP.test(c.attribs?.itemprop ?? '') && !CELLS.has(name)) {
        removed.add(c);
        continue;
      }
      // Documentation furniture told by its words (doc-furniture.ts): a table of contents' label
      // and its links, "Edit this page", "Was this page helpful?", previous/next links.
      if (s.text > 0 && s.text <= MAX_FURNITURE_CHARS && s.text < total * 0.5 && name !== 'h1') {
        const furniture = docFurnitureKind(shortText(c, scored), linkDensity(s));
        const toc = furniture === 'toc' ? tocAfter(c, children, scored) : [];
        // A table of contents that is a good part of what is selected is the page (a manual's
        // chapter page: its introduction, then the list of its sections), not furniture beside it.
        if (toc.length && toc.reduce((n, t) => n + (scored.stats.get(t)?.text ?? 0), s.text) >= total * TOC_PAGE_SHARE) {
          for (const t of toc) contents.add(t);
          continue;
        }
        if (furniture) {
          removed.add(c);
          for (const t of toc) removed.add(t);
          continue;
        }
      }
      // Boilerplate told by its words (boilerplate-text.ts): one short line, not most of the content.
      if (s.text > 0 && s.text <= MAX_BOILERPLATE_CHARS && s.blocks <= 1 && s.text < total * 0.5 && !KEEP_WHOLE.has(name)) {
        const words = HEADING_TAGS.has(name) ? shortText(c, scored) : lineText(c, scored).join('');
        const kind = HEADING_TAGS.has(name) ? null : boilerplateKind(words, linkDensity(s));
        // A date or byline is the page's own only outside grids, quotes (an embedded post's date is its content) and links.
        const meta = kind === 'dateline' || kind === 'byline';
        // Never the page's <h1>: "Most popular dog breeds" may be the story's own title.
        if (HEADING_TAGS.has(name) ? name !== 'h1' && (isSectionHeading(words) || isSignupPrompt(words) || isLabelOnly(words)) : kind !== null && !(meta && (CELLS.has(name) || (kind === 'dateline' && s.link > 0) || quoted(c)))) {
          if (kind === 'dateline') {
            datelines.push(c);
            continue;
          }
          removed.add(c);
          if (HEADING_TAGS.has(name) || isLabelOnly(words)) dropSectionAfter(c, children, scored, removed, total);
          continue;
        }
      }
      if (HEADING_TAGS.has(name)) {
        if (classWeight(c, scored.commentsAreContent, true) < 0) removed.add(c);
        continue;
      }
      if (name === 'table' && isDataTable(c, scored)) continue;
      // A wrapper around one data table (`<figure class="table-container">`) is that table.
      const table = wrappedTable(c, scored);
      if (table && isDataTable(table, scored)) continue;
      // Cards that each say a sentence or more of their own are kept whole, like records: the
      // quotes of a testimonials grid whose authors' names are links (a landing page 0.864 ->
      // 0.913, tune half; without the linked-heading guard a travel story took in its teaser
      // cards, 0.694 -> 0.609). Check half 5 up (0.928 -> 0.975, 0.898 -> 0.948), 2 down (by
      // 0.020, and a landing page under a story's path, mended in main-content.ts's weakService).
      if (CONDITIONAL.has(name)) {
        const weight = classWeight(c, scored.commentsAreContent, true);
        if (weight >= 0 && cardsOfProse(c, scored)) {
          if (s.inputs > 0) dropForms(c);
          continue;
        }
        // A block holding most of the content is the content, whatever it looks like (a story
        // with an 80-image gallery): clean inside it instead.
        if (s.text < total * 0.5 && isBoilerplate(c, s, weight) && !introducedList(c, at, children, scored) && !headedList(c, at, children, removed)) {
          // The block that holds the page's title is cleaned inside, not dropped whole: an item's
          // summary (name, price, then its buy box's controls and the seller's links) looks like
          // a form or a link list.
          if (!holdsTitle(c, scored) && !pricedForm(c, scored)) {
            removed.add(c);
            continue;
          }
        }
      }
      // A paragraph's inline content stays as written.
      if (name !== 'p') visit(c);
    }
  };
  for (const n of nodes) visit(n);
  // Records are kept whole above, but not their repeated share bars.
  for (const c of repeated) removed.add(c);
  // The post's date is one line, above or below the story; dates heading several entries (a
  // diary, a timeline) are their structure, and a date amid the text (an event's time) is content.
  if (datelines.length === 1) {
    const share = proseBefore(nodes, datelines[0], scored);
    if (share <= 0.1 || share >= 0.9) removed.add(datelines[0]);
  }
  // The writer's bio closing the story (author-bio.ts).
  if (!scored.commentsAreContent) dropClosingBio(nodes, scored, removed);
  const last = nodes[nodes.length - 1];
  if (last && !HEADING_TAGS.has(last.name ?? '')) dropTrailingHeadings(last, scored, removed);
  return removed;
}
