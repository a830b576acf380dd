/**
 * Main content of an HTML page, on the tree the pipeline already parsed (no second parse, no
 * copy of the document, the tree is not changed): the phases in order are prepare (prepare.ts,
 * applied during the score walk), score (score.ts), select (select.ts) and clean (clean.ts), then
 * the selection is written back to HTML for the markdown converter (serialize.ts).
 *
 * Quality checks, as trafilatura does with its fallbacks:
 * - baseline: when the selection holds under a quarter of the page's prose and the page declares
 *   its content element (`articleBody`, `<main>`, one `<article>`) with twice the text and few
 *   links, that element (cleaned) is the content;
 * - lenient pass: when the strict pass (class/id rules on) finds less than 500 characters, a pass
 *   without the class/id rules runs too (a page whose content is classed `comments`, say); the
 *   longer result wins when the strict one found nothing or under 250 characters;
 * - body: when both find nothing scoreable, the page's body without its chrome is the content;
 * - sections: on a service, landing or pricing page, a listing or a product grid (page-kind.ts),
 *   the whole body without its structural chrome (prepare without the class/id rules);
 * - noscript: a page that shows under 2,000 characters of content but carries a readable version
 *   of itself in a `<noscript>` (noscript.ts), with over twice as much: that version's content.
 */
import { classAndId, isElement, squash, type DomNode } from './dom.js';
import { isGridLine } from './boilerplate-text.js';
import { noscriptMarkup, parseFragment } from './noscript.js';
import { PRICE, declaresAnswers, declaresStory, pageKind, pageSignals, plainPageKind, pricedGroups, storyCards } from './page-kind.js';
import { alreadyShown, decodeEntities, ldProductDescription } from './ld-description.js';
import { opensRelatedSection, opensStorePolicySection } from './related-sections.js';
import { SECTION_TAGS, isCallToAction, pathWords, type PrepareOptions } from './prepare.js';
import { isDisclosureTrigger } from './disclosure.js';
import { linkDensity, scoreTree, type Scored } from './score.js';
import { contains, selectMain, textOf } from './select.js';
import { cleanSelection, promptLine, smallForm } from './clean.js';
import { serializeContent, type Serialized, type Skip } from './serialize.js';

export type { DomNode } from './dom.js';

export interface ContentOptions {
  /** Base URL links and images are resolved against. */
  base: string;
  /**
   * The page's own URL (after redirects), whose path tells its kind (`/threads/`, `/products/`);
   * `base` when not given. Not the `<base href>`: XenForo, for one, sets that to the site's root.
   */
  url?: string;
  /** Elements the caller removed (`exclude_tags`): left out of every result. */
  excluded?: ReadonlySet<DomNode>;
  /** Keep hidden tab and accordion panels (set on product pages). */
  hiddenPanels?: boolean;
  /** Keep blocks hidden by `hidden` or an inline style (see {@link revealedContent}). */
  revealHidden?: boolean;
  /** A forum or Q&A thread: blocks named for comments are its posts. */
  commentsAreContent?: boolean;
  /** A product page: its customer reviews and questions sections are not content (prepare.ts). */
  reviewsOut?: boolean;
  /** Text of paragraphs inside a link (a card that is one link) counts as text, not link text (score.ts). */
  blockLinks?: boolean;
  /** A forum thread or a Q&A page: its posts are written without quotes of other posts and furniture lines (thread-posts.ts). */
  forumPosts?: boolean;
}

export interface MainContent extends Serialized {
  /** Which pass produced it (for the bench and tests). */
  pass: 'strict' | 'baseline' | 'lenient' | 'body' | 'sections';
}

/** The URL whose path tells the page's kind (see {@link ContentOptions.url}). */
const pageUrl = (opts: ContentOptions): string => opts.url ?? opts.base;

/** Below this many characters, a strict result is checked against the lenient pass. */
const MIN_CONTENT_CHARS = 500;
// Main content leaves out sections that repeat an earlier one (serialize.ts): the same text written
// for two screen sizes. Not a thread's: a post may quote another without marking it as a quote.
// A thread's or a Q&A page's posts go without their quotes of other posts and their furniture
// lines (thread-posts.ts). Forum: tune half 0.804 -> 0.836, check half 0.788 -> 0.803 (README).
const repeats = (opts: ContentOptions) => ({ dropRepeats: !opts.commentsAreContent, threadPosts: opts.forumPosts });
/** A strict selection this long is kept even when the lenient pass finds more. */
const MIN_STANDING_CHARS = 250;

interface Pass {
  out: Serialized;
  /** The selected nodes (the body when nothing was found). */
  nodes: DomNode[];
  scored: Scored;
  /** Whether a candidate was selected (false: the body was the fallback). */
  found: boolean;
  /** Link density of the selected nodes. */
  links: number;
}

/** What prepare needs of the content options, with or without the class/id rules. */
function prepareOptions(opts: ContentOptions, classRules: boolean): PrepareOptions {
  return { classRules, excluded: opts.excluded, hiddenPanels: opts.hiddenPanels, revealHidden: opts.revealHidden, commentsAreContent: opts.commentsAreContent, reviewsOut: opts.reviewsOut, blockLinks: opts.blockLinks, pathWords: pathWords(pageUrl(opts)) };
}

function run(body: DomNode, opts: ContentOptions, classRules: boolean): Pass {
  const scored = scoreTree(body, prepareOptions(opts, classRules));
  const nodes = selectMain(scored);
  const removed = cleanSelection(nodes, scored);
  const skip: Skip = (n) => scored.dropped.has(n) || removed.has(n);
  const found = !(nodes.length === 1 && nodes[0] === body);
  // The body itself is written as its children (no <body> tag in the content).
  let text = 0;
  let link = 0;
  for (const n of nodes) {
    text += scored.stats.get(n)?.text ?? 0;
    link += scored.stats.get(n)?.link ?? 0;
  }
  return { out: serializeContent(found ? nodes : (body.children ?? []), skip, opts.base, repeats(opts)), nodes: found ? nodes : [body], scored, found, links: text ? link / text : 0 };
}

/**
 * The baseline: the page's own declaration of its content (`[itemprop=articleBody]`, `<main>`,
 * `[role=main]`, a single `<article>`), found in one walk that stops at the first of each.
 */
function declaredContent(body: DomNode, scored: Scored): DomNode | undefined {
  let main: DomNode | undefined;
  let itemBody: DomNode | undefined;
  const articles: DomNode[] = [];
  const walk = (n: DomNode) => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || scored.dropped.has(c)) continue;
      const a = c.attribs ?? {};
      if (a.itemprop === 'articleBody') itemBody ??= c;
      else if (c.name === 'main' || a.role === 'main') main ??= c;
      else if (c.name === 'article') articles.push(c);
      walk(c);
    }
  };
  walk(body);
  return itemBody ?? (articles.length === 1 ? articles[0] : main);
}

/**
 * Furniture names that stay furniture on a page read whole (a grid, a listing, a landing page,
 * read without the class rules: their cards and sections are often named like furniture): a
 * sidebar (a grid's facets), related or recommended items, a cookie or consent box, a site footer,
 * a newsletter box. Not layout words that name content as often (`overlay`: text over a picture;
 * `widget`, `promo`, `tools`, `caption`).
 */
const WHOLE_PAGE_CHROME = /side-?bar|related|recommend|cookie|consent|gdpr|footer|newsletter|announcement[-_]?bar|pickup-availab/;

/**
 * A block that the class rules drop (prepare.ts, strict pass: they spare such a name on a block
 * of prose) and that is named as furniture a whole page's reading leaves out too. WCXB development
 * pages, tune half 0.8742 -> 0.8752 (10 up, 1 down: a grid whose reference keeps its sidebar's
 * facets); check half 0.8624 -> 0.8636 (collection 0.732 -> 0.750; 15 up, 1 down: a
 * `map-and-related` block holding the content).
 */
function wholePageChrome(n: DomNode, strict: Scored): boolean {
  return strict.dropped.has(n) && WHOLE_PAGE_CHROME.test(classAndId(n));
}

// Class/id words of a grid's furniture: facets, filters, sorting, breadcrumbs, pagination (Magento's
// `div.pages`), its toolbar and per-page limiter.
const GRID_CHROME = /(?:^|[\s_-])(?:facets?|facet-list|filters?|filter-panel|refinements?|refine|sort|sort-by|sorting|sortby|breadcrumbs?|pagination|pager|paging|pages|toolbar|limiter)(?=$|[\s_-])/;

/** A block of a grid's furniture: named so, and not where the cards are (under a third of the page's text); or a count or sort line. */
function gridChrome(n: DomNode, scored: Scored): boolean {
  if (!isElement(n) || !n.attribs) return false;
  // A short line without links (its text read only then: 40 characters at most).
  const s = scored.stats.get(n);
  if (s && s.text > 0 && s.text <= 40 && s.link === 0 && isGridLine(textOf(n, scored).join(''))) return true;
  const names = classAndId(n);
  if (!names || !GRID_CHROME.test(names)) return false;
  const own = scored.stats.get(n)?.text ?? 0;
  return own < (scored.stats.get(scored.root)?.text ?? 0) / 3;
}

/**
 * Whether a node holds one of `grids` or is inside one: the grids' ancestors are gathered once,
 * and a node's own ancestors are walked, so a page of thousands of grids costs no more than its depth a node.
 */
function gridTest(grids: ReadonlySet<DomNode>): (n: DomNode) => boolean {
  const holders = new Set<DomNode>();
  for (const g of grids) for (let p: DomNode | null | undefined = g; p && !holders.has(p); p = p.parent) holders.add(p);
  return (n) => {
    if (holders.has(n)) return true;
    for (let p: DomNode | null | undefined = n.parent; p; p = p.parent) if (grids.has(p)) return true;
    return false;
  };
}

/**
 * Whether the written content `html` lacks most cards of the grid `grid`: each card's title (its
 * first heading, else its first words; CARD_WORDS_CHARS characters) looked for in its text, up to
 * MAX_CARDS_READ cards.
 */
function cardsCleaned(grid: DomNode, scored: Scored, html: string): boolean {
  const text = squash(decodeEntities(html.replace(/<[^>]*>/g, ' ')));
  let cards = 0;
  let found = 0;
  for (const c of grid.children ?? []) {
    if (!isElement(c) || cards >= MAX_CARDS_READ) continue;
    const words = squash(textOf(cardTitle(c) ?? c, scored).join(' ')).slice(0, CARD_WORDS_CHARS).trim();
    if (!words) continue;
    cards++;
    if (text.includes(words)) found++;
  }
  return cards >= MIN_CLEANED_CARDS && found * 4 < cards;
}
const MAX_CARDS_READ = 40;
const CARD_WORDS_CHARS = 30;
const MIN_CLEANED_CARDS = 4;

/** A card's title: its first heading, a few levels down (a tile's name), if any. */
function cardTitle(card: DomNode, depth = 6): DomNode | undefined {
  for (const c of card.children ?? []) {
    if (!isElement(c)) continue;
    if (/^h[2-6]$/.test(c.name ?? '')) return c;
    const t = depth > 1 ? cardTitle(c, depth - 1) : undefined;
    if (t) return t;
  }
  return undefined;
}

/** The group with the most cards (element children); the first of them on a tie. */
function largestGroup(groups: ReadonlySet<DomNode>): DomNode {
  let best: DomNode | undefined;
  let most = -1;
  for (const g of groups) {
    const n = (g.children ?? []).filter(isElement).length;
    if (n > most) {
      most = n;
      best = g;
    }
  }
  return best!;
}

/** Whether none of `nodes` is inside one of `roots` or holds one (the selection misses them all). */
function apart(nodes: Iterable<DomNode>, roots: readonly DomNode[]): boolean {
  for (const n of nodes) if (roots.some((r) => contains(r, n) || contains(n, r))) return false;
  return true;
}

/** A block of links (menus, link lists, related items): mostly link text. */
function linkBlock(n: DomNode, scored: Scored): boolean {
  const s = scored.stats.get(n);
  return !!s && s.text >= 40 && linkDensity(s) > 0.6;
}

// What a grid's selection may grow by to take in the page's title (see extractByKind).
const GRID_TITLE_GROWTH = 1.05;
const GRID_TITLE_CHARS = 400;

/** The page's first `<h1>` that survived prepare. */
function firstH1(body: DomNode, scored: Scored): DomNode | undefined {
  for (const c of body.children ?? []) {
    if (!isElement(c) || scored.dropped.has(c)) continue;
    if (c.name === 'h1') return c;
    const h = firstH1(c, scored);
    if (h) return h;
  }
  return undefined;
}

/**
 * The elements wholly before the page's first `<h1>` that survived prepare (not its ancestors),
 * with everything inside them; empty when there is no such heading.
 */
export function beforeTitle(body: DomNode, scored: Scored): Set<DomNode> {
  const h1 = firstH1(body, scored);
  const out = new Set<DomNode>();
  if (!h1) return out;
  const ancestors = new Set<DomNode>();
  for (let n: DomNode | null | undefined = h1.parent; n; n = n.parent) ancestors.add(n);
  // Depth first, stopping at the heading: what is met before it and does not hold it.
  const walk = (n: DomNode): boolean => {
    for (const c of n.children ?? []) {
      if (c === h1) return true;
      if (!isElement(c) || scored.dropped.has(c)) continue;
      if (ancestors.has(c)) return walk(c);
      addAll(c);
    }
    return false;
  };
  const addAll = (n: DomNode) => {
    out.add(n);
    for (const c of n.children ?? []) if (isElement(c) && !scored.dropped.has(c)) addAll(c);
  };
  walk(body);
  return out;
}

/**
 * The smallest element holding the selection `roots` and the page's first `<h1>` that survived
 * prepare; undefined when there is no such heading, the selection already holds it, or only the
 * body holds both.
 */
function itemArea(body: DomNode, roots: DomNode[], scored: Scored): DomNode | undefined {
  const h1 = firstH1(body, scored);
  if (!h1) return undefined;
  const chain = new Set<DomNode>();
  for (let n: DomNode | null | undefined = h1; n; n = n.parent) chain.add(n);
  let lca: DomNode | undefined;
  for (const r of roots) {
    let n: DomNode | null | undefined = r;
    while (n && !chain.has(n)) n = n.parent;
    if (!n) return undefined;
    // The deepest common node so far: the higher of the two.
    if (!lca || contains(n, lca)) lca = n;
  }
  if (!lca || lca === h1 || lca === body || lca.name === 'html' || roots.includes(lca)) return undefined;
  return lca;
}

// A promotion's block by its name (`promo-tile`, `promoTile`, `grid-promo`, `promotion`).
const PROMO_NAME = /promo/;

/** A price block above an item's name says this much at most (prices, a was-price, a discount). */
const MAX_PRICE_BLOCK_CHARS = 120;
const PRICES = new RegExp(PRICE.source, 'g');
/** Letters a price block says beside its prices ("Was", "Now", "49% off", "incl. VAT"). */
const PRICE_BLOCK_WORDS = 20;
/** A price's parts sit this many levels below its block at most. */
const PRICE_BLOCK_DEPTH = 3;
/** The name sits this many levels below the block that holds it and the price at most. */
const NAME_DEPTH = 3;

/** Whether `inner` is inside `outer`, at most `depth` levels below it. */
function within(outer: DomNode, inner: DomNode, depth: number): boolean {
  let n: DomNode | null | undefined = inner.parent;
  for (let i = 0; n && i < depth; i++, n = n.parent) if (n === outer) return true;
  return false;
}

/** A thread's area (its title, opening post and replies) says at most this many times what its selected replies say. */
const THREAD_AREA_GROWTH = 4;
/** An opening post says this much at least. */
const MIN_OPENING_POST_CHARS = 200;
const POST_NAME = /(?:^|[\s_-])post(?:[-_]?(?:listing|content|body|text))?(?=$|[\s_-])|(?:^|\s)postcontent(?=$|\s)/i;

/**
 * Whether `area` holds, before the selection `roots`, a block named for a post (`post-listing`,
 * `postContent`) that says enough to be the thread's opening post (a few levels down at most).
 */
function openingPostBefore(area: DomNode, roots: DomNode[], scored: Scored): boolean {
  const find = (n: DomNode, depth: number): boolean | undefined => {
    for (const c of n.children ?? []) {
      if (!isElement(c) || scored.dropped.has(c)) continue;
      if (roots.some((r) => r === c || contains(c, r))) return false;
      if (POST_NAME.test(classAndId(c)) && (scored.stats.get(c)?.text ?? 0) >= MIN_OPENING_POST_CHARS) return true;
      if (depth > 1) {
        const f = find(c, depth - 1);
        if (f !== undefined) return f;
      }
    }
    return undefined;
  };
  return find(area, 3) === true;
}

/** A block before a product's name inside the item's area this long is its description, not a stock or report line. */
const BEFORE_TITLE_PROSE = 300;

/** Kinds of page whose content is every block of the body, not one container (page-kind.ts). */
const WHOLE_KINDS = new Set(['service', 'listing', 'collection', 'product']);

/** The main content of the page whose `<body>` (or document root) is `body`, as HTML. */
export function extractMainContent(body: DomNode, opts: ContentOptions): MainContent {
  const kind = pageKind(body, { url: pageUrl(opts) });
  const product = kind === 'product';
  // A forum thread: its posts are often named as comments (not on a Q&A page that declares its
  // answers: comments there are remarks on the answers). Tune half: forum 0.723 -> 0.781.
  const thread = kind === 'forum' && !declaresAnswers(body, { url: pageUrl(opts) });
  // Hidden tab and accordion panels are content: a product's description, specifications and care
  // tabs; a documentation page's examples in other languages; the answers of a service page's or
  // a guide's FAQ. Tune half: service 0.807 -> 0.810, article 0.944 -> 0.946. Not a thread's.
  // A product page's reviews and questions are its shoppers' posts, as comments are a story's:
  // not the item's content. Tune half: product 0.697 -> 0.703; check half 0.624 -> 0.645.
  // A page that is not a story, a product or a grid of priced items (a listing, a landing page):
  // a card that is one link around its title and paragraph reads as text, not as a link (its
  // excerpt is what the listing shows). On a story such cards are related stories, and a grid's
  // tiles have their own reading (priced groups). Tune half 0.8765 -> 0.8779 (8 up, 5 down; a
  // news listing 0.073 -> 0.968), check half 0.8639 -> 0.8645 (4 up, 2 down); article benchmark
  // unchanged. Grids were left out after a check-half grid lost (0.570 -> 0.311).
  const blockLinks = !product && kind !== 'collection' && !declaresStory(body, { url: pageUrl(opts) });
  const kindOpts = kind === 'forum' ? { ...opts, forumPosts: true, commentsAreContent: thread } : { ...opts, hiddenPanels: true, reviewsOut: product, blockLinks };
  const first = extractByKind(body, kindOpts);
  const out = first.textLength < MIN_STANDING_CHARS ? revealedContent(body, kindOpts, first) : first;
  // A product page whose document does not show the description its JSON-LD gives: that
  // description after the content (a description rendered by a script, or in an empty tab).
  if (!product) return out;
  const description = ldProductDescription(body);
  if (!description || alreadyShown(description, out.html.replace(/<[^>]*>/g, ' '))) return out;
  return { ...out, html: `${out.html}<p>${escapeText(description)}</p>`, textLength: out.textLength + description.length };
}

/**
 * A page that shows almost nothing because its scripts reveal the content they hid (a body
 * streamed into `display:none` holders and moved into place, a content gate that unhides the
 * page): the content with those blocks shown, when that has much more to say. Blocks hidden from
 * assistive technology (`aria-hidden`) stay out, and shown blocks are judged like any other.
 */
function revealedContent(body: DomNode, opts: ContentOptions, shown: MainContent): MainContent {
  const revealed = extractByKind(body, { ...opts, revealHidden: true });
  return revealed.textLength >= Math.max(MIN_CONTENT_CHARS, shown.textLength * 4) ? revealed : shown;
}

// Below this share of the page's prose, a story's selection may be one section of a landing page.
const THIN_STORY_SHARE = 0.3;

// The fewest story cards (page-kind.ts) that make a listing whose selection misses them.
const MIN_STORY_CARDS = 6;
// The fewest priced cards in one block that make a listing whose selection misses them.
const MIN_PRICED_CARDS = 8;

const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function extractByKind(body: DomNode, opts: ContentOptions): MainContent {
  const plain = plainPageKind(body, { url: pageUrl(opts) });
  // A product page's few words are its item's (the body beside them is other products).
  const { roots, strict, ...out } = extractFrom(body, opts, plain !== 'product');
  // A listing or a grid by the weaker signs, whose selection is a short intro (the page's title
  // and a paragraph above its cards): its cards too. A landing page by the weaker signs (its
  // sections alone), whose selection holds under half of its sections (the testimonials, the
  // longest prose on the page): every section. Tune half: service 0.800 -> 0.807. A story
  // declared (by its path, `/learn/…`, or its type) whose selection is a few lines is no story
  // there: a landing page in a site's learning section (check half, found there: 0.213 -> 0.996).
  // Nor is one declared by its path alone, however long its selection (a cliff at 500 characters:
  // the same page at 520, once a testimonials grid stayed in, 0.996 -> 0.458; check half, found
  // there; no other page of either half moves).
  const named = pageKind(body, { url: pageUrl(opts) });
  const story = !plain && declaresStory(body, { url: pageUrl(opts) }, false);
  const weakService = !plain && named === 'service' && (out.textLength < MIN_CONTENT_CHARS || !declaresStory(body, { url: pageUrl(opts) }, false, false));
  // A listing whose selection holds none of its story cards and says less than twice what they
  // say (a blog category's intro above them): the cards too. A story's related-posts cards beside
  // a long selection stay out. Tune half: 2 up (0.693 -> 0.977, 0.792 -> 0.993), none down; check
  // half unchanged (the first try, without the length bound, cost two stories and a landing page).
  const cards = !plain && named === 'listing' && !story ? storyCards(body, { url: pageUrl(opts) }) : [];
  const missesCards =
    cards.length >= MIN_STORY_CARDS &&
    apart(cards, roots) &&
    out.textLength < 2 * cards.reduce((n, c) => n + textOf(c, strict).join('').replace(/\s+/g, ' ').length, 0);
  // A listing by the weaker signs whose selection misses its grid of priced cards (eight or more
  // in one block: a shop's tiles above a long buying guide, the guide selected): the cards too.
  const priced = named === 'listing' && !story ? [...pricedGroups(body, { url: pageUrl(opts) })].filter((g) => (g.children ?? []).filter(isElement).length >= MIN_PRICED_CARDS) : [];
  const missesPriced = priced.length > 0 && apart(priced, roots);
  // A page read as a story (by its type, microdata or the lack of other signs) whose selection
  // holds under THIN_STORY_SHARE of the page's prose, among five blocks or more named as a landing
  // page's (features, services, pricing, FAQ): one section of a landing page or a catalogue of
  // programmes, read section by section. Found over both halves' story-read pages by the share
  // their selection holds: tune half 0.8883 -> 0.8895 (0.331 -> 0.728, 0.234 -> 0.717; a
  // report's landing page 0.905 -> 0.836), check half 0.8809 -> 0.8814 (0.081 -> 0.424); the
  // article benchmark unchanged (0.978).
  const sig = pageSignals(body, { url: pageUrl(opts) });
  const thinStory = !plain && named === 'article' && out.textLength < sig.prose * THIN_STORY_SHARE && sig.serviceBlocks >= 5;
  const kind = thinStory ? 'service' : plain ?? (weakService || ((out.textLength < MIN_CONTENT_CHARS || missesCards || missesPriced) && (named === 'listing' || named === 'collection') && !story) ? named : undefined);
  // A service, landing or pricing page: every content section (hero, features, pricing, FAQ,
  // testimonials), not the one biggest node; a listing or a product grid: every card, not the
  // one card or block that scores best. The page's structural chrome (header, nav, aside, footer,
  // dialogs, hidden parts) stays out. Measured on the tune half of the WCXB development pages
  // (true kinds): service 0.723 -> 0.797 word F1, listing 0.548 -> 0.703, collection 0.511 -> 0.570.
  if (kind && WHOLE_KINDS.has(kind)) {
    // A product page is read with the class rules: the strict pass's tree, already scored.
    // A landing page's cards that are one link around a title and a paragraph (its offerings, each
    // linking to its own page) read as text there, whatever the page declares itself (a CMS says
    // "article" of every page).
    const scored = kind === 'product' ? strict : scoreTree(body, prepareOptions(kind === 'service' ? { ...opts, blockLinks: true } : opts, false));
    // The page's groups of priced cards (a grid; beside a product, carousels of other products).
    const groups = pricedGroups(body, { url: pageUrl(opts) });
    // A grid's facet, filter and sort panels, breadcrumbs and pager are not cards.
    let skip: Skip;
    // A product page's store policies (shipping and returns, a guarantee): the store's, on every
    // item's page, not the item's. Left out of what is written but counted in the choice between
    // the selection and the page's sections, which is about the item (counted out, a newegg
    // page's 20 words of policy tipped it to a selection without the specifications, 0.93 -> 0.61).
    // WCXB development pages: tune half 3 up (0.815 -> 0.851, 0.843 -> 0.868, 0.891 -> 0.905),
    // 3 down (two newegg pages whose references keep the policy, 0.93 -> 0.90; 0.898 -> 0.887);
    // check half 4 up (0.507 -> 0.548, 0.858 -> 0.901, 0.605 -> 0.615, 0.333 -> 0.348 with the
    // page-kind fix), none down.
    let policyChars = 0;
    const storePolicy = (n: DomNode) => {
      if (!SECTION_TAGS.has(n.name ?? '') || !opensStorePolicySection(n)) return false;
      policyChars += scored.stats.get(n)?.text ?? 0;
      return true;
    };
    // The item's area: the smallest block holding the selection and the item's name (see below).
    const item = kind === 'product' ? itemArea(body, roots, scored) : undefined;
    if (kind === 'product') {
      // Beside the item: menus and link lists, related-items sections, grids and carousels of other products.
      // And text before the item's name (the page's first <h1>) without a picture: the store's
      // slogan, phone and log-in lines. Tune half: product 0.703 -> 0.705, check half 0.647 -> 0.648.
      // And prompt lines (share, sign-up, legal; clean.ts promptLine), as on a landing page: tune
      // half 2 up, 1 down by 0.001; check half unchanged.
      const before = beforeTitle(body, scored);
      const wordsOnly = (n: DomNode) => {
        const st = scored.stats.get(n);
        return !!st && st.text > 0 && st.images === 0;
      };
      // Not a long block inside the item's area, nor what is in one: a page that writes its
      // description tabs before the name (OpenCart's left column of pictures and tabs, the name and
      // price in the right one). Its short lines there still go ("Low in stock", "Report this item").
      const long = (n: DomNode) => before.has(n) && wordsOnly(n) && (scored.stats.get(n)?.text ?? 0) >= BEFORE_TITLE_PROSE;
      const itemProse = (n: DomNode) => {
        if (!item || !contains(item, n)) return false;
        for (let p: DomNode | null | undefined = n; p && p !== item; p = p.parent) if (long(p)) return true;
        return false;
      };
      // Nor the item's price written just above its name (a marketplace's price block, then coupons,
      // then the title, in the same column): a priced line whose block holds the name too.
      const h1 = firstH1(body, scored);
      const priceBlock = (n: DomNode) => {
        const st = scored.stats.get(n);
        if (!h1 || !n.parent || !st || st.text > MAX_PRICE_BLOCK_CHARS || !within(n.parent, h1, NAME_DEPTH)) return false;
        // Prices and little else ("US $45.99 US $89.99 49% off"), not a coupon strip's offers.
        const text = textOf(n, scored).join(' ');
        return PRICE.test(text) && text.replace(PRICES, ' ').replace(/[^\p{L}]+/gu, '').length <= PRICE_BLOCK_WORDS;
      };
      // The block or one of its blocks up to PRICE_BLOCK_DEPTH levels up (the parts of the price).
      const priceAboveName = (n: DomNode) => {
        let p: DomNode | null | undefined = n;
        for (let i = 0; p && i <= PRICE_BLOCK_DEPTH; i++, p = p.parent) if (priceBlock(p)) return true;
        return false;
      };
      const beside = (n: DomNode) => before.has(n) && wordsOnly(n) && !itemProse(n) && !priceAboveName(n);
      skip = (n) => scored.dropped.has(n) || linkBlock(n, scored) || groups.has(n) || opensRelatedSection(n) || smallForm(n, scored) || beside(n) || storePolicy(n) || promptLine(n, scored);
    } else if (kind === 'service') {
      // Beside the sections: menus and link lists (a footer not marked as one), calls to action.
      // Tune half: service F1 0.765 -> 0.772, boilerplate snippets left out 0.784 -> 0.890.
      // And lines that only prompt the reader (share, sign up, legal: clean.ts promptLine), which
      // the cleaner's line rules take out of a selection. With the grid's: tune half 4 up, 1 down
      // by 0.006 (a service page's reference keeps its "straight to your inbox" line); check half
      // 6 up, none down (a template card's "Share this project with your classmates" stays).
      // And a related section ("Read Next" and its cards of other pages), as on a grid: check half
      // 1 up (an SEO guide's chapter page 0.936 -> 0.977), no other page of either half moves.
      skip = (n) => scored.dropped.has(n) || linkBlock(n, scored) || isCallToAction(n) || smallForm(n, scored) || wholePageChrome(n, strict) || promptLine(n, scored) || opensRelatedSection(n, false, false);
    } else {
      // Link blocks before the page's title (a masthead's menus and site switchers not marked as
      // navigation): a grid's or a listing's cards come after its title.
      // A grid of priced cards and its cards are what the page is, wherever its title stands (a
      // category's description and <h1> below its products).
      const before = beforeTitle(body, scored);
      const inGrid = gridTest(groups);
      // And a short line of words before the title (a store's strip: "Free shipping over R$ 299 ·
      // 10x interest-free"), as on an item's page.
      const strip = (n: DomNode) => {
        const st = scored.stats.get(n);
        return !!st && st.text > 0 && st.text < BEFORE_TITLE_PROSE && st.images === 0;
      };
      // And a promotion's tile among the cards (`li.grid-tile.promo-tile`): named a promotion, no price.
      const promoTile = (n: DomNode) => inGrid(n) && PROMO_NAME.test(classAndId(n)) && !PRICE.test(textOf(n, scored).join(' '));
      skip = (n) => scored.dropped.has(n) || gridChrome(n, scored) || opensRelatedSection(n, false, false) || smallForm(n, scored) || (before.has(n) && (linkBlock(n, scored) || strip(n)) && !inGrid(n)) || wholePageChrome(n, strict) || promptLine(n, scored) || promoTile(n);
    }
    // A product page whose selected description and heading (the product's name, beside its
    // price and buy box) sit apart, in one block, the item's area: a page laid out in sections,
    // whose feature sections and comparison table below that area are the item's too. The whole
    // page without what is beside the item (menus, related items, reviews). WCXB development
    // pages: tune half 1 up (0.574 -> 0.870), 1 down by 0.003; check half 1 up (0.897 -> 0.945),
    // 2 down by 0.001.
    const sections = serializeContent(body.children ?? [], skip, opts.base, repeats(opts));
    const sectionChars = sections.textLength + policyChars;
    if (item) return sectionChars > out.textLength ? { ...sections, pass: 'sections' } : out;
    // A story the selection already holds (most of what the page shows) stays as selected.
    // A grid whose selection holds none of its priced cards (its FAQ or buying guide, the longest
    // prose on the page): the cards are what the page is.
    // (The page's grid: its largest group of priced cards; a sidebar's priced ranges, "Under $50",
    // are a group too, and may sit inside the selection.)
    // Or whose cards the selection's cleaning took out (tiles that are one link each read as link
    // lists), when the selection is short: a category's title and intro above them. Not on a page
    // with one buy button (an item's page told a grid, its related items the grid).
    const grid = groups.size > 0 ? largestGroup(groups) : undefined;
    const missesGrid = (kind === 'collection' || missesPriced) && !!grid && (apart([grid], roots) || (kind === 'collection' && out.textLength < MIN_CONTENT_CHARS * 2 && sig.cartButtons !== 1 && cardsCleaned(grid, scored, out.html)));
    if (sectionChars > out.textLength && ((kind === 'service' && !weakService) || missesGrid || missesCards || out.textLength < sectionChars * (kind === 'product' || weakService ? 0.5 : 0.4))) return { ...sections, pass: 'sections' };
    // A grid whose selection is its cards alone: with the page's title and the few lines around
    // them (the category's name and intro above the cards), not the rest of the page.
    if (kind !== 'product' && kind !== 'service') {
      const area = itemArea(body, roots, scored);
      const grown = area && serializeContent([area], skip, opts.base, repeats(opts));
      if (grown && grown.textLength > out.textLength && grown.textLength <= out.textLength * GRID_TITLE_GROWTH + GRID_TITLE_CHARS) return { ...grown, pass: out.pass };
    }
    // A product page whose selection holds most of it (its declared main element): the selection
    // without what is beside the item in it (related-items sections, grids of other products).
    if (kind === 'product' && !roots.includes(body)) {
      const removed = cleanSelection(roots, scored);
      const own = serializeContent(roots, (n) => skip(n) || removed.has(n), opts.base, repeats(opts));
      if (own.textLength >= out.textLength / 4) return { ...own, pass: out.pass };
    }
  }
  // A thread whose selection is its replies alone, its opening post in a block of its own above
  // them (a link aggregator's `div.post-listing` beside its comment tree): the smallest block
  // holding the replies and the thread's title, cleaned as a selection is.
  if (opts.commentsAreContent) {
    const area = itemArea(body, roots, strict);
    if (area && openingPostBefore(area, roots, strict)) {
      const grown = cleanedContent(area, strict, opts);
      if (grown.textLength > out.textLength && grown.textLength <= out.textLength * THREAD_AREA_GROWTH) return { ...grown, pass: out.pass };
    }
  }
  // A page that shows little without scripts but carries its readable version in a <noscript>:
  // that version's main content, when it has more to say.
  if (out.textLength < MIN_CONTENT_CHARS * 4) {
    const raw = noscriptMarkup(body);
    if (raw) {
      const alt = extractFrom(parseFragment(raw), { base: opts.base, url: opts.url });
      if (alt.textLength > out.textLength * 2) {
        const { roots: _, strict: __, ...rest } = alt;
        return rest;
      }
    }
  }
  return out;
}

/** `el` as content: cleaned (clean.ts) and written without what prepare dropped. */
function cleanedContent(el: DomNode, scored: Scored, opts: ContentOptions): Serialized {
  const removed = cleanSelection([el], scored);
  return serializeContent([el], (n) => scored.dropped.has(n) || removed.has(n), opts.base, repeats(opts));
}

/** A result with the nodes it was written from. */
interface Extracted extends MainContent {
  roots: DomNode[];
}

/** The main content with the nodes it was written from and the strict pass's scored tree (its class rules' drops). */
function extractFrom(body: DomNode, opts: ContentOptions, bareBody = true): Extracted & { strict: Scored } {
  const strict = run(body, opts, true);
  return { ...extractAfter(strict, body, opts, bareBody), strict: strict.scored };
}

// A documentation page's declared content (<main>) wins over a selection it holds when it says this
// much more: a reference page's prose is one block among its parameter tables and examples.
const DOC_DECLARED_SHARE = 1.25;

function extractAfter(strict: Pass, body: DomNode, opts: ContentOptions, bareBody: boolean): Extracted {
  // Quality check against the baseline: a selection with under half of the page's prose while
  // the page declares a content element with twice the text and few links; on a documentation
  // page whatever the share (a reference page's sections are one block each). Half, not a
  // quarter (stop 55): one block of a landing page (its FAQ, its letter from the founders) won
  // the selection beside a <main> that holds every section. WCXB development pages: tune 0.8830 ->
  // 0.8845 (5 up, none down), check 0.8669 -> 0.8675 (3 up, none down); article benchmark unchanged.
  const bodyProse = strict.scored.stats.get(body)?.prose ?? 0;
  const docs = pageKind(body, { url: pageUrl(opts) }) === 'documentation';
  if (strict.found && (strict.out.textLength < bodyProse / 2 || docs)) {
    const declared = declaredContent(body, strict.scored);
    const ds = declared && strict.scored.stats.get(declared);
    if (declared && ds && ds.text >= strict.out.textLength * (docs ? DOC_DECLARED_SHARE : 2) && linkDensity(ds) < 0.3) {
      const out = cleanedContent(declared, strict.scored, opts);
      if (out.textLength > strict.out.textLength) return { ...out, pass: 'baseline', roots: [declared] };
    }
  }
  if (strict.out.textLength >= MIN_CONTENT_CHARS) return { ...strict.out, pass: strict.found ? 'strict' : 'body', roots: strict.nodes };
  const pageText = strict.scored.stats.get(body)?.text ?? 0;
  let best: Extracted = { ...strict.out, pass: strict.found ? 'strict' : 'body', roots: strict.nodes };
  const lenient = run(body, opts, false);
  // A strict selection of a short post stands (its comments are not the content); a strict pass
  // that found nothing, a few lines only, or mostly links, gives way to a longer lenient one.
  const strictStands = strict.found && strict.out.textLength >= MIN_STANDING_CHARS && strict.links < 0.3;
  if (!strictStands && lenient.out.textLength > best.textLength && (lenient.found || !strict.found)) best = { ...lenient.out, pass: lenient.found ? 'lenient' : 'body', roots: lenient.nodes };
  // Nothing left once cleaned (a grid of two short cards, cleaned as furniture): what the page
  // shows beside its chrome, before the whole page with its menus.
  if (best.textLength === 0 && pageText > 0) {
    const shown = bodyBesideChrome(body, strict.scored, opts);
    best = { ...(shown.textLength > 0 ? shown : wholeContent(body.children ?? [], opts)), pass: 'body', roots: [body] };
  }
  // A few words found, while the page declares its content element (<main>, role=main, one
  // <article>) with much more: a page whose content is lists of links (an index, a "list of"
  // page) scores nothing as prose. The declared element, cleaned, whatever its link density.
  if (best.textLength < MIN_STANDING_CHARS) {
    const declared = declaredContent(body, strict.scored);
    const ds = declared && strict.scored.stats.get(declared);
    if (declared && ds && ds.text >= Math.max(MIN_CONTENT_CHARS, best.textLength * 4)) {
      const out = cleanedContent(declared, strict.scored, opts);
      if (out.textLength > best.textLength * 2) best = { ...out, pass: 'baseline', roots: [declared] };
    }
  }
  // Still a few words (a dialog's, a loading placeholder's) on a page with much more to show and
  // no content element: a grid of short cards, none of them a paragraph, scores nothing. The
  // body without its chrome and its grid furniture, like a listing's.
  // Without the class/id rules when those leave the page bare (cards classed like furniture).
  for (const scored of bareBody ? [strict.scored, lenient.scored] : []) {
    if (best.textLength >= MIN_STANDING_CHARS) break;
    if ((scored.stats.get(body)?.text ?? 0) < Math.max(MIN_CONTENT_CHARS, best.textLength * 4)) continue;
    // Related-stories sections stay out (teasers beside a short story are not its content).
    const whole = bodyBesideChrome(body, scored, opts);
    if (whole.textLength > best.textLength * 2) best = { ...whole, pass: 'body', roots: [body] };
  }
  return best;
}

/** The body without its chrome (prepare's drops), its grid furniture and related-stories sections. */
function bodyBesideChrome(body: DomNode, scored: Scored, opts: ContentOptions): Serialized {
  return serializeContent(body.children ?? [], (n) => scored.dropped.has(n) || gridChrome(n, scored) || opensRelatedSection(n, false, false), opts.base, repeats(opts));
}

// An inline style that hides the element (visibility:hidden keeps its box, so it is kept here).
const DISPLAY_NONE = /(?:^|;)\s*display\s*:\s*none/i;
// What is never content even when the whole page is asked for.
const NEVER = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'head', 'link', 'meta', 'base', 'title', 'button', 'input', 'select', 'textarea', 'option', 'dialog']);

/** `nodes` whole (only_main_content false, or include_tags), without scripts, styles, embeds and form controls. */
export function wholeContent(nodes: DomNode[], opts: ContentOptions): Serialized {
  const hidden = (n: DomNode) => n.attribs?.hidden !== undefined || DISPLAY_NONE.test(n.attribs?.style ?? '');
  const skip: Skip = (n) => isElement(n) && ((NEVER.has(n.name ?? '') && !isDisclosureTrigger(n)) || hidden(n) || (opts.excluded?.has(n) ?? false));
  return serializeContent(nodes, skip, opts.base);
}

/** Keep only the outermost of `nodes` (an element inside another selected one comes with it), in document order. */
export function outermost(nodes: DomNode[]): DomNode[] {
  const set = new Set(nodes);
  const out = nodes.filter((n) => {
    for (let p = n.parent; p; p = p.parent) if (set.has(p)) return false;
    return true;
  });
  return [...new Set(out)];
}

