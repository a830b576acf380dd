/**
 * Phase 2, score: one walk over the tree (skipping what prepare calls non-content) that measures
 * every element (text, link text, commas, paragraphs, images, list items, form controls, embeds,
 * heading text) and scores candidate containers the way Readability.js does: each paragraph-like
 * block with 25+ characters of its own text gives `1 + commas + min(length/100, 3)` to its parent,
 * half to its grandparent and a third of its level to the three above; a candidate starts from its
 * tag and its class/id (content names +25, furniture names -25). Selection reads
 * `score × (1 − link density)`.
 */
import { BLOCK_TAGS, HEADING_TAGS, classAndId, commaCount, isElement, textLength, type DomNode } from './dom.js';
import { COMMENT_NAMES, POST_LINE_NAMES, isNonContent, listChoices, mainFrame, opensArticle, type PrepareOptions } from './prepare.js';

export interface NodeStats {
  /** Characters of text (whitespace at the ends of text nodes not counted). */
  text: number;
  /** Characters of text inside links. */
  link: number;
  commas: number;
  /** Text of this element itself and its inline descendants (not inside a nested block). */
  ownText: number;
  ownCommas: number;
  /** Link text within the own text. */
  ownLink: number;
  /** Text of paragraph-like blocks that are mostly not links (the prose mass of the subtree). */
  prose: number;
  /** Text inside `<pre>` (code). */
  code: number;
  paragraphs: number;
  images: number;
  listItems: number;
  /** Text inside list items. */
  listText: number;
  inputs: number;
  embeds: number;
  headingText: number;
  /** Paragraph-like blocks (25+ characters of own text) in the subtree. */
  blocks: number;
  /** Text of placeholder copy ("Lorem ipsum dolor sit amet…") in the subtree. */
  placeholder: number;
}

export interface Scored {
  root: DomNode;
  stats: Map<DomNode, NodeStats>;
  /** Raw content scores of candidate containers. */
  scores: Map<DomNode, number>;
  /** Subtrees prepare left out. */
  dropped: Set<DomNode>;
  /** A thread's: blocks named for comments are its posts (class weights read so, see {@link classWeight}). */
  commentsAreContent?: boolean;
  /** A product page's (its buy form may hold the price and the summary, see clean.ts pricedForm). */
  itemPage?: boolean;
}

const POSITIVE = /article|body|content|entry|h-?entry|main|page|post|text|blog|story|prose|markdown|articlebody|column|thread|message|description|product|recipe|review|detail/;
const NEGATIVE = /hidden|banner|combx|comment|contact|footer|footnote|gdpr|masthead|outbrain|promo|related|share|shoutbox|sidebar|skyscraper|sponsor|shopping|widget|byline|author|dateline|subscribe|newsletter|recommend|popular|trending|social|caption|credit|breadcrumb|pagination|signup|teaser|(?:^|[\s_-])(?:com|foot|meta|nav|navbar|menu|tags?|tools?|media|scroll|login|rating|ad|ads)(?=$|[\s_-])/;

/**
 * Utility classes that style a block, not name it: its overflow (Tailwind's `overflow-hidden`,
 * `overflow-x-auto`: "hidden" and "scroll" are furniture words), its scroll margins and padding
 * (`scroll-mt-24` on a section heading, for anchor links) and any style under a condition
 * (`md:grid`, `hover:underline`, `lg:overflow-hidden`). And `hidden` beside a display from some
 * width up (`hidden md:block`: shown on a desktop). Tune half 4 up (a home page's hero back,
 * 0.869 -> 0.953; two documentation pages' headings), 1 down by 0.003, 0.8898 -> 0.8900; check
 * half 1 up, 2 down by 0.011 (a toolkit page's marketing blocks its reference leaves out).
 */
const LAYOUT_UTILITY = /(?:^|\s)(?:overflow(?:-[xy])?-(?:hidden|scroll|auto|clip|visible)|scroll-(?:smooth|auto|[mp][trblxyse]?-\S+)|[\w-]+:[\w:./[\]-]+)(?=$|\s)/g;

/** A display from some screen width up (`md:block`): a block classed `hidden` beside it shows on a desktop. */
const SHOWN_FROM = /(?:^|\s)(?:sm|md|lg|xl|2xl):(?:block|flex|grid|inline|inline-block|inline-flex|table|contents)(?=$|\s)/;
const HIDDEN_CLASS = /(?:^|\s)hidden(?=$|\s)/g;

/**
 * Class/id weight: +25 for names of content, −25 for names of page furniture (both can apply).
 * `layoutAside`: without the utility classes (the cleaner's judgement of a block inside the
 * content; the scores that choose the content keep them, see clean.ts).
 */
export function classWeight(el: DomNode, commentsAreContent = false, layoutAside = false): number {
  let names = classAndId(el);
  if (layoutAside) names = (SHOWN_FROM.test(names) ? names.replace(HIDDEN_CLASS, ' ') : names).replace(LAYOUT_UTILITY, ' ');
  if (commentsAreContent) names = names.replace(COMMENT_NAMES, ' ').replace(POST_LINE_NAMES, ' ');
  let w = 0;
  if (names) {
    if (NEGATIVE.test(names)) w -= 25;
    if (POSITIVE.test(names)) w += 25;
  }
  const prop = el.attribs?.itemprop;
  if (prop === 'articleBody' || prop === 'text' || prop === 'description') w += 25;
  return w;
}

function tagWeight(name: string): number {
  switch (name) {
    case 'div':
    case 'article':
    case 'main':
      return 5;
    case 'section':
    case 'pre':
    case 'td':
    case 'blockquote':
      return 3;
    case 'address':
    case 'ol':
    case 'ul':
    case 'dl':
    case 'dd':
    case 'dt':
    case 'li':
    case 'form':
      return -3;
    case 'h1':
    case 'h2':
    case 'h3':
    case 'h4':
    case 'h5':
    case 'h6':
    case 'th':
      return -5;
    default:
      return 0;
  }
}

// Form fields (not buttons: copy, vote and follow buttons sit beside content everywhere).
const CONTROLS = new Set(['input', 'select', 'textarea']);
const EMBEDS = new Set(['iframe', 'object', 'embed', 'video', 'audio']);
/** Containers whose own text beside block children counts as a paragraph inside them. */
const MIXED = new Set(['div', 'section', 'article', 'main', 'td']);
// A card link's text beyond its title that makes it a blurb (read as text on a page of cards).
const CARD_BLURB_CHARS = 80;
const NOT_CANDIDATES = new Set(['html', 'a', 'span', 'b', 'i', 'em', 'strong', 'tbody', 'thead', 'tr']);

const emptyStats = (): NodeStats => ({
  text: 0, link: 0, commas: 0, ownText: 0, ownCommas: 0, ownLink: 0, prose: 0, code: 0, paragraphs: 0, images: 0, listItems: 0, listText: 0,
  inputs: 0, embeds: 0, headingText: 0, blocks: 0, placeholder: 0,
});

const FILLER_WORDS = /^lorem ipsum\s+dolor\b/i;
const FILLER_NAME = /^lorem ipsum(?:\s+\d+)?$/i;

/**
 * Whether a text is a designer's placeholder copy: the filler's own words ("Lorem ipsum dolor sit
 * amet…") or its name alone ("Lorem Ipsum", "Lorem ipsum 1"), not a sentence about it ("Lorem
 * ipsum is the printing industry's dummy text"). A template's section left unfilled, hidden by
 * the page's style sheet or never finished: never a page's content (no WCXB reference holds it;
 * it is on 7 of the 1,358 development pages). Read from the start of the text (a text node may be
 * megabytes long).
 */
function isPlaceholder(data: string): boolean {
  const head = data.slice(0, 80).trimStart();
  if (!/^lorem ipsum/i.test(head)) return false;
  if (FILLER_WORDS.test(head)) return true;
  const whole = data.length <= 200 ? data.trim() : '';
  return whole.length <= 30 && FILLER_NAME.test(whole);
}
/** Where such words are an example of themselves (a typography article's code or quote). */
const QUOTING = new Set(['pre', 'code', 'blockquote', 'q', 'samp', 'kbd']);

/** Link density of measured stats: share of the text that sits inside links. */
export const linkDensity = (s: NodeStats | undefined): number => (s && s.text > 0 ? s.link / s.text : 0);

/** Score every candidate under `root` (normally `<body>`). */
export function scoreTree(root: DomNode, opts: PrepareOptions): Scored {
  const stats = new Map<DomNode, NodeStats>();
  const scores = new Map<DomNode, number>();
  const dropped = new Set<DomNode>();
  const ancestors: DomNode[] = [];

  const frame = mainFrame(root);
  const credit = (el: DomNode, amount: number) => scores.set(el, (scores.get(el) ?? 0) + amount);

  // Inside a code block, class names are the highlighter's tokens (`hljs-comment`, `token comment`), not
  // the page's furniture: no class rule applies there.
  const codeOpts: PrepareOptions = { ...opts, classRules: false };
  const walk = (el: DomNode, insideArticle: boolean, insideCode: boolean): NodeStats => {
    const s = emptyStats();
    stats.set(el, s);
    const inArticle = insideArticle || opensArticle(el);
    const inCode = insideCode || el.name === 'pre';
    ancestors.push(el);
    for (const child of el.children ?? []) {
      if (child.type === 'text') {
        const data = child.data ?? '';
        const len = textLength(data);
        if (len === 0) continue;
        const commas = commaCount(data);
        if (isPlaceholder(data) && !QUOTING.has(el.name ?? '')) s.placeholder += len;
        s.text += len;
        s.ownText += len;
        s.commas += commas;
        s.ownCommas += commas;
        continue;
      }
      if (!isElement(child)) continue;
      const name = child.name ?? '';
      if (isNonContent(child, inArticle, inCode ? codeOpts : opts, frame)) {
        dropped.add(child);
        // A disabled control is not one to use: a task list's ticked boxes (GitHub, markdown renderers).
        if (CONTROLS.has(name) && child.attribs?.type !== 'hidden' && child.attribs?.disabled === undefined) s.inputs++;
        else if (EMBEDS.has(name)) s.embeds++;
        else if (name === 'ul' || name === 'ol') s.inputs += listChoices(child).choices;
        continue;
      }
      const c = walk(child, inArticle, inCode);
      // A block of placeholder copy is left out like hidden furniture (its headings "Head Line 1" may stay).
      if (c.placeholder > 0 && c.placeholder >= c.text * 0.6) {
        dropped.add(child);
        continue;
      }
      s.text += c.text;
      s.placeholder += c.placeholder;
      s.link += c.link;
      s.commas += c.commas;
      s.paragraphs += c.paragraphs;
      s.images += c.images;
      s.listItems += c.listItems;
      s.listText += c.listText;
      s.inputs += c.inputs;
      s.embeds += c.embeds;
      s.headingText += c.headingText;
      s.blocks += c.blocks;
      s.prose += c.prose;
      s.code += c.code;
      if (!BLOCK_TAGS.has(name)) {
        s.ownText += c.ownText;
        s.ownCommas += c.ownCommas;
        s.ownLink += name === 'a' ? c.ownText : c.ownLink;
      }
    }
    ancestors.pop();
    const name = el.name ?? '';
    switch (name) {
      case 'a':
        // A card that is one link: its paragraphs' prose is not link text when the page reads
        // such cards as content (a listing's, a landing page's; PrepareOptions.blockLinks). A card
        // whose blurb is not a paragraph (a heading, then a <div> of text): its title is the link text.
        if (opts.blockLinks && s.paragraphs > 0) s.link = s.text - s.prose;
        else if (opts.blockLinks && s.headingText > 0 && s.text - s.headingText >= CARD_BLURB_CHARS) s.link = s.headingText;
        else s.link = s.text;
        break;
      case 'p':
        s.paragraphs++;
        break;
      case 'pre':
        s.code = s.text;
        break;
      case 'img':
      case 'picture':
        s.images++;
        break;
      case 'li':
        s.listItems++;
        s.listText = s.text;
        break;
      default:
        if (HEADING_TAGS.has(name)) s.headingText = s.text;
    }
    // A paragraph-like block: credit the containers above it.
    if (s.ownText >= 25 && (BLOCK_TAGS.has(name) || el.parent?.type === 'root') && name !== 'body' && name !== 'html') {
      s.blocks++;
      if (s.ownLink < s.ownText * 0.5) s.prose += s.ownText;
      const points = 1 + s.ownCommas + Math.min(Math.floor(s.ownText / 100), 3);
      // Up to five candidate levels: wrappers that cannot be candidates (a table's tbody and tr,
      // inline elements) take no level, so a cell's text reaches the cell, not the layout table.
      let level = 0;
      // Mixed content (text of its own beside block children, as in a <div> whose story is bare
      // text and <br>s under a title <p>): the text is a paragraph inside the element, so the
      // element itself is the first container credited, as Readability's paragraph wrapping does.
      const mixed = MIXED.has(name) && (el.children ?? []).some((c) => isElement(c) && BLOCK_TAGS.has(c.name ?? '') && c.name !== 'br');
      if (mixed) {
        credit(el, points);
        level++;
      }
      for (let i = ancestors.length - 1; i >= 0 && level < 5; i--) {
        const target = ancestors[i];
        if (NOT_CANDIDATES.has(target.name ?? '')) continue;
        credit(target, level === 0 ? points : level === 1 ? points / 2 : points / (level * 3));
        level++;
      }
    }
    return s;
  };

  walk(root, false, false);
  // Starting points from tag and class/id, added once the subtree is measured: a content class
  // counts in full only on a container with some text and some prose of its own (a one-line
  // `title-content` div is not the article, nor is a `#main` layout table whose text sits in
  // cells further down), a furniture class always.
  for (const [el, points] of scores) {
    const w = classWeight(el, opts.commentsAreContent);
    const text = stats.get(el)?.text ?? 0;
    scores.set(el, points + tagWeight(el.name ?? '') + (w > 0 ? Math.min(w * Math.min(1, text / 500), Math.max(points * 2, 10)) : w));
  }
  return { root, stats, scores, dropped, commentsAreContent: opts.commentsAreContent, itemPage: opts.reviewsOut };
}

/** A candidate's score for selection: its raw score scaled by the share of text outside links. */
export function finalScore(scored: Scored, el: DomNode): number {
  const raw = scored.scores.get(el);
  if (raw === undefined) return 0;
  return raw * (1 - linkDensity(scored.stats.get(el)));
}
