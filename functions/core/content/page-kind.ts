/**
 * What kind of page a document is (`metadata.page_kind`), from its structure alone: schema.org
 * types (JSON-LD and microdata), `og:type`, the URL's path words, and one walk over the body that
 * counts repeated sibling blocks (cards), prices, post and comment structure, code blocks, tables,
 * sections and prose. Deterministic, no model.
 *
 * Kinds: `article` (one story), `forum` (a thread of posts), `product` (one item for sale),
 * `collection` (a grid of products), `listing` (repeated entries that are not products: news
 * lists, directories, courses), `documentation`, `service` (landing, pricing and feature pages of
 * many sections) and `other`.
 */
import { documentRoot, isElement, leadingText, type DomNode } from './dom.js';
import { noscriptMarkup, parseFragment } from './noscript.js';

import type { PageKind } from './page-kinds.js';

export { PAGE_KINDS, type PageKind } from './page-kinds.js';

/** What the walk counts. */
export interface KindSignals {
  /** schema.org types from microdata (`itemtype`), short names. */
  itemTypes: string[];
  /** Microdata items typed `Question` (a FAQ marks up each of its questions; a thread has one). */
  questions: number;
  articles: number;
  /** `<pre>` blocks and `<code>` elements outside them. */
  pre: number;
  code: number;
  tables: number;
  sections: number;
  headings: number;
  /** Characters of paragraph text (`<p>` of 80+ characters). */
  prose: number;
  longParagraphs: number;
  text: number;
  /** Text pieces that read as a price (`$19.99`, `19,99 €`). */
  prices: number;
  /** Buttons or links that put an item in a cart. */
  cartButtons: number;
  /** Elements whose class/id names posts, replies or comments. */
  postBlocks: number;
  /** Elements whose class/id names documentation furniture (toc, docs sidebar, admonitions). */
  docBlocks: number;
  /** Elements whose class/id names landing-page sections (hero, pricing, features, testimonials, FAQ, CTA). */
  serviceBlocks: number;
  /** Elements whose class/id names filters, facets or sorting. */
  facetBlocks: number;
  /** The largest group of same-kind sibling blocks that each hold a link (cards). */
  cards: number;
  /** Of those cards, how many show a price. */
  pricedCards: number;
  /** Same-kind sibling blocks that each hold prose and a date or author line (posts). */
  posts: number;
  /** Elements whose children are a group of three or more linked cards that show a price (a product grid or carousel). */
  pricedGroups: DomNode[];
  /** `<article>` elements that open with a linked heading and hold under 400 characters of paragraph prose (story cards). */
  articleCards: number;
  /** The story cards themselves, in document order. */
  storyCards: DomNode[];
  /** schema.org `@type`s named in the JSON-LD blocks. */
  ldTypes: string[];
  /** `og:type`. */
  ogType: string | null;
  /** The URL the document declares as its own in `<link rel="canonical">` (null when none). */
  canonical: string | null;
  /** `og:url`: the URL it declares for sharing, read when there is no canonical link. */
  ogUrl: string | null;
}

/** A price as stores print it ("$19.99", "4 299,-", "149,00 zł"). */
export const PRICE = /(?:[$€£¥₹₩₽₺₪₫]\s?\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{2})?\b)|(?:\b\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{2})?\s?(?:€|\$|£|USD|EUR|GBP|CHF|kr|zł|₽|₩|₺|Kč|Ft|円|원)(?!\w))|(?:\b\d{1,3}(?:[.\s]\d{3})*[,:]-(?!\w))/;
const CART = /(?<!\p{L})(?:add to (?:cart|bag|basket)|buy now|add to trolley|in den warenkorb|ajouter au panier|añadir al carrito|agregar al carrito|aggiungi al carrello|adicionar ao carrinho|in (?:de )?winkelwagen|lägg i varukorgen|læg i kurv|legg i handlekurven|do koszyka|sepete ekle|в корзину)(?!\p{L})|장바구니(?:\s*담기)?|바로\s*구매|カートに入れる|加入购物车/iu;
const POST_CLASS = /(?:^|[\s_-])(?:post|posts|reply|replies|comment|comments|message|answer|answers|topic-post|thread|forum|postbody|post-body|post-content|messagecontent|cooked)(?=$|[\s_-])/;
const DOC_CLASS = /(?:^|[\s_-])(?:toc|table-of-contents|docs|doc|documentation|admonition|sphinxsidebar|md-sidebar|md-content|rst-content|wy-nav|theme-doc|docusaurus|api-reference|highlight|codehilite|prev-next|pagination-nav|edit-this-page|version-switcher|version-picker)(?=$|[\s_-])/;
const SERVICE_CLASS = /(?:^|[\s_-])(?:hero|pricing|price-table|plans?|tiers?|features?|testimonials?|faq|faqs|cta|benefits|how-it-works|our-services|services|usp|logos|clients|team)(?=$|[\s_-])/;
const FACET_CLASS = /(?:^|[\s_-])(?:filters?|facets?|facet-list|refinements?|sort|sort-by|sorting|product-grid|product-list|products-grid|collection-grid|product-card|product-item|product-tile|grid-product)(?=$|[\s_-])/;
const DATE_OR_AUTHOR = /(?:^|[\s_-])(?:date|time|posted|author|username|user-name|byline|avatar|poster|post-meta|meta)(?=$|[\s_-])/;

const SKIP = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'canvas', 'math']);

const lower = (el: DomNode) => {
  const a = el.attribs;
  return a ? `${a.class ?? ''} ${a.id ?? ''}`.toLowerCase() : '';
};

const sig = (el: DomNode) => `${el.name}.${(el.attribs?.class ?? '').trim().split(/\s+/, 1)[0]}`;

interface Sub {
  text: number;
  links: number;
  prices: number;
  images: number;
  dated: boolean;
  prose: number;
  /** Holds a heading with a link in it. */
  headingLink: boolean;
  /** Whether the text is in a script without spaces between words (a paragraph says more in fewer characters). */
  cjk: boolean;
  /** The subtree's text, its parts joined by spaces, while it is short (MAX_PRICE_TEXT); null past that. */
  short: string | null;
}

/** A price is at most this long, its parts included. */
const MAX_PRICE_TEXT = 40;

/** `a` and `b` joined by a space, or null when either is null or the result passes MAX_PRICE_TEXT. */
function joinShort(a: string | null, b: string | null): string | null {
  if (a === null || b === null) return null;
  const out = a && b ? `${a} ${b}` : a || b;
  return out.length <= MAX_PRICE_TEXT ? out : null;
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/** One walk over `root` (the document or its body). */
export function kindSignals(root: DomNode): KindSignals {
  const s: KindSignals = {
    itemTypes: [], questions: 0, articles: 0, pre: 0, code: 0, tables: 0, sections: 0, headings: 0, prose: 0, longParagraphs: 0, text: 0, prices: 0,
    cartButtons: 0, postBlocks: 0, docBlocks: 0, serviceBlocks: 0, facetBlocks: 0, cards: 0, pricedCards: 0, posts: 0, pricedGroups: [], articleCards: 0, storyCards: [], ldTypes: [], ogType: null,
    canonical: null, ogUrl: null,
  };
  const types = new Set<string>();
  const walk = (el: DomNode, inPre: boolean): Sub => {
    const sub: Sub = { text: 0, links: 0, prices: 0, images: 0, dated: false, prose: 0, cjk: false, headingLink: false, short: '' };
    const kids: [DomNode, Sub][] = [];
    // The text just before, when only comments came between: a server-rendered price is often
    // written in parts (React's `$<!-- -->30`).
    let before = '';
    for (const c of el.children ?? []) {
      if (c.type === 'text') {
        const d = c.data ?? '';
        const t = d.trim().length;
        if (!t) continue;
        sub.text += t;
        if (!sub.cjk && CJK.test(d.slice(0, 40))) sub.cjk = true;
        if (t < 40 && (PRICE.test(d) || (before && before.length + t < 40 && !PRICE.test(before) && PRICE.test(before + d)))) sub.prices++;
        before = d.trim();
        sub.short = joinShort(sub.short, before);
        continue;
      }
      if (c.type !== 'comment') before = '';
      if (!isElement(c)) continue;
      const name = c.name ?? '';
      const a = c.attribs ?? {};
      if (name === 'script') {
        if (/ld\+json/i.test(a.type ?? '')) for (const t of jsonLdTypes(c)) s.ldTypes.push(t);
        continue;
      }
      // A price declared by microdata (`<meta itemprop="price" content="59.99">` beside a price
      // shown without its currency: bol.com's "59" and a raised "99").
      if (a.itemprop === 'price' || a.itemprop === 'lowPrice') sub.prices++;
      if (name === 'meta') {
        if (s.ogType === null && a.property === 'og:type' && a.content) s.ogType = a.content.trim();
        if (s.ogUrl === null && a.property === 'og:url' && a.content) s.ogUrl = a.content.trim();
        continue;
      }
      if (name === 'link') {
        if (s.canonical === null && /(?:^|\s)canonical(?:\s|$)/i.test(a.rel ?? '') && a.href) s.canonical = a.href.trim();
        continue;
      }
      if (SKIP.has(name)) continue;
      const names = lower(c);
      const isPre = name === 'pre';
      const r = walk(c, inPre || isPre);
      kids.push([c, r]);
      sub.text += r.text;
      sub.links += r.links;
      sub.prices += r.prices;
      sub.short = joinShort(sub.short, r.short);
      sub.images += r.images;
      sub.prose += r.prose;
      if (r.dated) sub.dated = true;
      if (r.cjk) sub.cjk = true;
      if (r.headingLink || (r.links > 0 && /^h[1-6]$/.test(name))) sub.headingLink = true;
      switch (name) {
        case 'a':
          sub.links++;
          break;
        case 'img':
        case 'picture':
          sub.images++;
          break;
        case 'article':
          s.articles++;
          if (r.headingLink && r.prose < 400) {
            s.articleCards++;
            s.storyCards.push(c);
          }
          break;
        case 'pre':
          s.pre++;
          break;
        case 'code':
          if (!inPre) s.code++;
          break;
        case 'table':
          s.tables++;
          break;
        case 'section':
          s.sections++;
          break;
        case 'h1':
        case 'h2':
        case 'h3':
          s.headings++;
          break;
        case 'time':
          sub.dated = true;
          break;
        case 'p':
          if (r.text >= (r.cjk ? 30 : 80)) {
            s.prose += r.text;
            s.longParagraphs++;
            sub.prose += r.text;
          }
          break;
        case 'button':
        case 'input':
          if (CART.test(name === 'input' ? a.value ?? '' : textOf(c))) s.cartButtons++;
          break;
      }
      if (a.itemtype) {
        for (const t of a.itemtype.split(/\s+/)) {
          if (!t) continue;
          const type = t.replace(/^https?:\/\/schema\.org\//i, '');
          types.add(type);
          if (type === 'Question') s.questions++;
        }
      }
      if (names.trim()) {
        if (POST_CLASS.test(names)) s.postBlocks++;
        if (DOC_CLASS.test(names)) s.docBlocks++;
        if (SERVICE_CLASS.test(names)) s.serviceBlocks++;
        if (FACET_CLASS.test(names)) s.facetBlocks++;
        if (DATE_OR_AUTHOR.test(names)) sub.dated = true;
      }
      if (name === 'form' && CART.test(textOf(c))) s.cartButtons++;
    }
    // A price written in parts, each in its own element (`<span>$</span><span>42.00</span>`, a
    // split `$ 119 00`): the short text they make together.
    if (sub.prices === 0 && sub.short && PRICE.test(sub.short)) sub.prices = 1;
    // Repeated sibling blocks: the largest same-kind group of element children each holding a link.
    if (kids.length >= 3) {
      const groups = new Map<string, Sub[]>();
      for (const [k, r] of kids) {
        if (r.text === 0) continue;
        const key = sig(k);
        const g = groups.get(key);
        if (g) g.push(r);
        else groups.set(key, [r]);
      }
      for (const g of groups.values()) {
        if (g.length < 3) continue;
        const linked = g.filter((r) => r.links > 0 && r.text < 600);
        const priced = linked.filter((r) => r.prices > 0).length;
        if (priced >= 3) s.pricedGroups.push(el);
        if (linked.length >= 3 && linked.length > s.cards) {
          s.cards = linked.length;
          s.pricedCards = priced;
        }
        const posts = g.filter((r) => r.prose > 0 && r.dated).length;
        if (posts >= 2 && posts > s.posts) s.posts = posts;
      }
    }
    return sub;
  };
  const all = walk(root, false);
  s.text = all.text;
  s.prices = all.prices;
  s.itemTypes = [...types];
  return s;
}

// `"@type": "X"` or `"@type": ["X", "Y"]` anywhere in a JSON-LD block (read without parsing it: a
// broken block still names its types, and nested nodes count as the parsed graph's would).
const LD_TYPE = /"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")/g;

function jsonLdTypes(script: DomNode): string[] {
  const raw = (script.children ?? []).map((c) => c.data ?? '').join('');
  const out: string[] = [];
  for (const m of raw.matchAll(LD_TYPE)) for (const t of m[1].matchAll(/"([^"]+)"/g)) out.push(t[1]);
  return out;
}

/** The start of `el`'s text, white space collapsed, up to about 80 characters (a button's label, a form's first words). */
const textOf = (el: DomNode): string => leadingText(el, 80);

/** What the page says of itself besides its document. */
export interface KindHints {
  /** The page URL (its path words). */
  url: string;
}

const FORUM_TYPES = /^(?:DiscussionForumPosting|QAPage|Question|Comment)$/;
// schema.org's Product and its kinds (a dealer's car: `Car`, `Vehicle`).
const PRODUCT_TYPES = /^(?:Product|ProductGroup|IndividualProduct|ProductModel|SomeProducts|Vehicle|Car|Motorcycle|MotorizedBicycle|BusOrCoach|DietarySupplement|Drug)$/;
const ARTICLE_TYPES = /^(?:Article|NewsArticle|BlogPosting|Report|LiveBlogPosting|Recipe|HowTo|OpinionNewsArticle)$/;
const DOC_TYPES = /^(?:TechArticle|APIReference)$/;
const GRID_TYPES = /^(?:CollectionPage|OfferCatalog)$/;
const SERVICE_TYPES = /^(?:Service|FAQPage|LocalBusiness|ProfessionalService)$/;

const FORUM_PATH = /\/(?:t|t5|threads?|topics?|questions?|forums?|community|discussions?|comments|r)\/|\/(?:viewtopic|showthread|showtopic)(?:\.php)?(?:[/?-]|$)|\/issues\/\d+(?:[/?#]|$)/;
const NUMBERED_POST_PATH = /\/post\/\d+\/?(?:[?#]|$)/;
const PRODUCT_PATH = /\/(?:products?|p|dp|item|itm)\/[^/]+/;
const COLLECTION_PATH = /\/(?:collections?|categor(?:y|ies)|shop|c|department|catalog|store)\//;
const DOC_PATH = /\/(?:docs?|documentation|reference|api|guides?|manual|tutorial|handbook)(?:\/|$|\.)|\/(?:latest|stable|v?\d+(?:\.\d+)+)\//;
const SERVICE_PATH = /\/(?:pricing|plans|features|services?|solutions|programs?|packages|tuition[a-z-]*|testimonials|reviews)(?:\/|$)/;
const ARTICLE_PATH = /\/(?:blogs?|articles?|news|posts?|stories|story|insights|learn|magazine|journal|thoughts|notes)\/(?=[^/?#]*[-_.\d]|[^/?#]{16}|[^/?#]+\/[^/?#])|\/20\d\d\/\d\d\//;

/** Path and query of `url` (resolved against `base`), lower-case ('' when it is not a URL). */
function urlPath(url: string, base?: string): string {
  try {
    const u = new URL(url, base);
    return `${u.pathname}${u.search}`.toLowerCase();
  } catch {
    return '';
  }
}

/**
 * The paths a page's kind is read from: the address it was fetched from and the one it declares
 * as its own (`<link rel="canonical">`, else `og:url`), when that differs. A page served from
 * another address (a mirror, a saved copy, a test server, a proxy's path) still says where it
 * lives: a thread at `/topic/…`, a story under `/blog/`. A path sign on either counts.
 */
function kindPaths(s: KindSignals, h: KindHints): string[] {
  const own = urlPath(h.url);
  const declared = s.canonical ?? s.ogUrl;
  const other = declared ? urlPath(declared, h.url || undefined) : '';
  return other && other !== own ? [own, other] : [own];
}

/**
 * The kind of page, from its signals and hints: the rules in order, the first that holds
 * (measured on the tune half of the WCXB development pages, checked on the other half:
 * `npm run bench -- content`).
 */
export function classifyPage(s: KindSignals, h: KindHints, paths = kindPaths(s, h)): PageKind {
  const ld = declaredTypes(s);
  const has = (re: RegExp) => ld.some((t) => re.test(t));
  const on = (re: RegExp) => paths.some((p) => re.test(p));
  if (!s.text) return 'other';
  const og = (s.ogType ?? '').toLowerCase();
  // Share of the page's text in paragraphs of prose.
  const pt = s.prose / Math.max(1, s.text);
  const product = has(PRODUCT_TYPES);
  const articleLd = has(ARTICLE_TYPES);
  const article = articleLd || og === 'article' || on(ARTICLE_PATH);
  // Questions and answers marked up as microdata several times over are a FAQ's, not a thread's.
  const faq = has(/^FAQPage$/) || (s.questions >= 2 && !ld.some((t) => /^(?:DiscussionForumPosting|QAPage|Comment)$/.test(t)));
  const forumLd = has(FORUM_TYPES) && !product && !faq;
  // A thread: a forum path with posts, a declared discussion with little paragraph prose, or many post blocks.
  if ((on(FORUM_PATH) && (s.postBlocks >= 5 || forumLd)) || (forumLd && pt < 0.45)) return 'forum';
  // A link aggregator's post under its number alone (Lemmy's, PieFed's `/post/11823449`), with
  // its comment tree, that declares no story: a thread. A blog's post names itself by a slug.
  if (on(NUMBERED_POST_PATH) && s.postBlocks >= 5 && !articleLd && og !== 'article') return 'forum';
  // Story cards (`<article>`s each opening with a linked headline): a news or blog listing.
  // Not when the cards carry prices: a store's product tiles written as <article>s (PrestaShop's
  // `article.product-miniature`) are a grid.
  if (s.articleCards >= 6 && pt < 0.5 && (!articleLd || og === 'website') && !product && s.pricedCards * 2 < s.articleCards) return 'listing';
  // Not when the blocks are priced: a store's cards named `post-123` (WordPress gives every product
  // that class) are a grid, and a thread's posts carry no short price lines. Nor an item's page
  // with a buy button whose reviews are the post blocks (a bookshop's page of a book).
  if (s.postBlocks >= 40 && pt < 0.25 && !product && !article && s.prices * 4 < s.postBlocks && !(s.cartButtons && on(PRODUCT_PATH))) return 'forum';
  // A grid of products: priced cards, a declared catalogue, or facets beside many cards.
  const grid = s.pricedCards >= 3 || og === 'product.group' || has(GRID_TYPES) || (s.facetBlocks >= 5 && s.cards >= 12 && pt < 0.3);
  if (on(COLLECTION_PATH) && !on(PRODUCT_PATH) && (grid || s.cards >= 8) && pt < 0.5) return 'collection';
  if ((product || og === 'product' || og.includes('item')) && !(grid && !s.cartButtons) && !(articleLd && pt > 0.3)) return 'product';
  // An item's path with its one buy button (or three: cart, buy now, wish list) is the item's page,
  // however many priced carousels it shows ("Customers also bought", a bookshop's other editions).
  if (on(PRODUCT_PATH) && (s.cartButtons > 0 || product) && (!grid || (s.cartButtons >= 1 && s.cartButtons <= 3))) return 'product';
  // An item's page that declares nothing (no type, no og:type, no product path): a buy button or
  // three beside a few prices, no grid and few cards. No development page moves (each page like it
  // declares itself); Gleaner's own corpus has a German Magento-like page that does not.
  if (!grid && !article && s.cartButtons >= 1 && s.cartButtons <= 3 && s.prices >= 1 && s.prices <= 8 && s.cards < 8) return 'product';
  if (grid && pt < 0.35) return 'collection';
  // Documentation: a docs path or type, or code blocks on a page that is not a declared story.
  if (on(DOC_PATH) || has(DOC_TYPES)) return 'documentation';
  if ((s.pre >= 2 || s.code >= 10) && !article) return 'documentation';
  if (articleLd && pt > 0.2) return 'article';
  // og:type article alone on a services path is a CMS default (WordPress says it of every page).
  if (article && pt > 0.3 && (articleLd || og !== 'article' || on(ARTICLE_PATH) || !on(SERVICE_PATH))) return 'article';
  // Repeated linked cards over little prose: a listing. Not when the page names more landing
  // blocks (hero, features, CTA…) than it has cards: a landing page's offerings (of the development
  // pages with at least as many, 8 are service pages, 1 a story, no listing).
  if (s.cards >= 12 && pt < 0.3 && s.serviceBlocks < s.cards) return 'listing';
  // A declared list of items (JSON-LD ItemList) laid out as cards, over little prose: a directory's
  // or a search's results, whatever the landing-page names around them.
  if (has(/^ItemList$/) && s.cards >= 8 && pt < 0.4 && !article) return 'listing';
  if (on(SERVICE_PATH) || has(SERVICE_TYPES) || (s.serviceBlocks >= 4 && pt < 0.6 && !article)) return 'service';
  if (pt > 0.45) return 'article';
  if (article && pt > 0.15) return 'article';
  if (s.sections >= 4 || s.serviceBlocks >= 2) return 'service';
  if (s.cards >= 8) return 'listing';
  // Too little to tell (an error page, a shell that renders with scripts), or nothing that says what it is.
  if (s.text < 200) return article ? 'article' : 'other';
  return pt > 0.25 || article ? 'article' : 'other';
}

/** The schema.org types the page declares (JSON-LD and microdata), without their namespace. */
function declaredTypes(s: KindSignals): string[] {
  return [...s.ldTypes, ...s.itemTypes].map((t) => t.replace(/^.*[/#]/, ''));
}

/** Text below which a page's `<noscript>` version, when it has one, is what its kind is read from. */
const SCRIPTED_PAGE_TEXT = 2000;

/** Kind of each document already classified (metadata and main content ask for the same page). */
const known = new WeakMap<DomNode, Classified>();

/** A document's kind, its signals and the paths its kind was read from (kindPaths). */
interface Classified {
  kind: PageKind;
  signals: KindSignals;
  paths: string[];
}

/**
 * The kind of the page whose document contains `node` (any node of it: the walk starts at the
 * document root, so `<head>`'s JSON-LD and `og:type` count), classified once per document.
 */
export function pageKind(node: DomNode, hints: KindHints): PageKind {
  const root = documentRoot(node);
  return classified(root, hints).kind;
}

function classified(root: DomNode, hints: KindHints): Classified {
  const cached = known.get(root);
  if (cached) return cached;
  let signals = kindSignals(root);
  if (signals.text < SCRIPTED_PAGE_TEXT) {
    const raw = noscriptMarkup(root);
    if (raw) {
      const alt = kindSignals(parseFragment(raw));
      if (alt.text > signals.text) signals = { ...alt, itemTypes: [...signals.itemTypes, ...alt.itemTypes], ldTypes: [...signals.ldTypes, ...alt.ldTypes], ogType: signals.ogType, canonical: signals.canonical, ogUrl: signals.ogUrl };
    }
  }
  const paths = kindPaths(signals, hints);
  const out = { kind: classifyPage(signals, hints, paths), signals, paths };
  known.set(root, out);
  return out;
}

/** The kind signals of the page whose document contains `node` (read once, with its kind). */
export function pageSignals(node: DomNode, hints: KindHints): Readonly<KindSignals> {
  return classified(documentRoot(node), hints).signals;
}

/** Priced card groups of the page whose document contains `node` (classified already by plainPageKind). */
export function pricedGroups(node: DomNode, hints: KindHints): ReadonlySet<DomNode> {
  const root = documentRoot(node);
  return new Set(classified(root, hints).signals.pricedGroups);
}

/** The page's story cards (see {@link KindSignals.storyCards}). */
export function storyCards(node: DomNode, hints: KindHints): readonly DomNode[] {
  return classified(documentRoot(node), hints).signals.storyCards;
}

/** Whether the page declares itself a story (JSON-LD/microdata article types, `og:type` article, a blog or dated path). */
export function declaresStory(node: DomNode, hints: KindHints, byOgType = true, byPath = true): boolean {
  const root = documentRoot(node);
  const { signals: s, paths } = classified(root, hints);
  const ld = declaredTypes(s);
  return ld.some((t) => ARTICLE_TYPES.test(t)) || (byOgType && (s.ogType ?? '').toLowerCase() === 'article') || (byPath && paths.some((p) => ARTICLE_PATH.test(p)));
}

/**
 * Whether the page declares schema.org `Answer`s and shows them as answers (a Q&A page whose
 * answers are its posts, and whose comments are remarks on them, not posts). A page that declares
 * answers in its JSON-LD but marks no block of its own as one (no `answer` class or id, no
 * microdata `Answer` or `Comment`) shows them as its comments: those are the posts. Tune half:
 * forum 0.836 -> 0.843 (1 page up, none down); check half 0.803 -> 0.810 (1 up; the `Comment`
 * exception was found on a check page, a NodeBB thread whose posts are microdata comments).
 */
export function declaresAnswers(node: DomNode, hints: KindHints): boolean {
  const root = documentRoot(node);
  const s = classified(root, hints).signals;
  if (!declaredTypes(s).includes('Answer')) return false;
  return s.itemTypes.some((t) => /(?:Answer|Comment)$/.test(t)) || hasAnswerBlock(root);
}

const ANSWER_BLOCK = /(?:^|[\s_-])answers?(?=$|[\s_-])|answer(?:cell|body|container)/i;

/** Whether an element under `root` is marked as an answer by its class, id or itemprop. */
function hasAnswerBlock(root: DomNode): boolean {
  const stack = [...(root.children ?? [])];
  while (stack.length) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const a = n.attribs ?? {};
    if (/Answer$/i.test(a.itemprop ?? '') || ANSWER_BLOCK.test(a.class ?? '') || ANSWER_BLOCK.test(a.id ?? '')) return true;
    if (n.name === 'script' || n.name === 'style' || n.name === 'head') continue;
    for (const c of n.children ?? []) stack.push(c);
  }
  return false;
}

/**
 * The kind of page when the page says so plainly enough to take every block of its body as the
 * content (main-content.ts): a service page by its path, schema.org type or landing-page blocks;
 * a listing by a dozen linked cards over little prose; a collection by priced cards. Never a page
 * that declares itself a story (JSON-LD article types, `og:type` article, a blog or dated path):
 * the weaker rules that name its kind for `metadata` are not enough to change its content.
 */
export function plainPageKind(node: DomNode, hints: KindHints): PageKind | undefined {
  const root = documentRoot(node);
  const { kind, signals: s, paths } = classified(root, hints);
  const on = (re: RegExp) => paths.some((p) => re.test(p));
  const ld = declaredTypes(s);
  const has = (re: RegExp) => ld.some((t) => re.test(t));
  // A store's category that its CMS calls an article (og:type, WordPress's default) while its
  // JSON-LD says it is a catalogue of priced cards is that catalogue.
  const catalogue = kind === 'collection' && has(GRID_TYPES) && s.pricedCards >= 3 && !ld.some((t) => ARTICLE_TYPES.test(t));
  if (declaresStory(root, hints) && !catalogue) return undefined;
  const pt = s.prose / Math.max(1, s.text);
  switch (kind) {
    case 'service':
      return on(SERVICE_PATH) || has(SERVICE_TYPES) || s.serviceBlocks >= 4 ? kind : undefined;
    case 'listing':
      return (s.cards >= 12 && pt < 0.3) || (s.articleCards >= 6 && pt < 0.5) ? kind : undefined;
    case 'product':
      return kind;
    case 'collection':
      return s.pricedCards >= 3 || has(GRID_TYPES) || (s.facetBlocks >= 5 && s.cards >= 12) ? kind : undefined;
    default:
      return undefined;
  }
}
