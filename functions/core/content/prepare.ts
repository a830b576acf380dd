/**
 * Phase 1, prepare: which elements are never main content. Decided per element on the way down the
 * tree (nothing is removed: the score walk skips these subtrees and the serializer leaves them out).
 *
 * - by tag: scripts, styles, embedded objects, form controls, navigation, asides, footers, dialogs;
 *   a `<header>` outside the article (the site's masthead);
 * - by ARIA role: navigation, banner, contentinfo, complementary, dialogs, menus, search;
 * - hidden: `hidden`, `aria-hidden="true"`, inline `display:none` / `visibility:hidden`;
 * - by structure: skip links, lists of choices (a grid's facets: a box to tick per value); on a
 *   product page, its reviews and questions sections (related-sections.ts);
 * - by class/id (the lenient pass turns this off): sidebars, comments, share bars, related links,
 *   newsletter boxes, cookie banners, ads, bylines…, unless the same class/id also names content
 *   (`article`, `content`, `main`, `body`, `entry`, `story`, `text`); with it off, text for screen
 *   readers only still goes when it labels shown text or is long (see {@link srLabel}).
 */
import { HEADING_TAGS, classAndId, holdsElement, leadingText as leadingTextOf, siblingIndex, textLength, type DomNode } from './dom.js';
import { articleHeader, idNamesHeading, tabTarget } from './doc-frame.js';
import { opensReviewsSection } from './related-sections.js';
import { isCardControl, isSectionHeading } from './boilerplate-text.js';
import { isDisclosurePanel, isDisclosureTrigger } from './disclosure.js';
import { isTicker } from './ticker.js';
import { isSponsoredCard } from './sponsored.js';

/** Blocks that may be a section of the page (a product's reviews, a store's policy beside it). */
export const SECTION_TAGS: ReadonlySet<string> = new Set(['div', 'section', 'article', 'ul', 'ol']);

const NEVER_CONTENT = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'applet',
  'button', 'input', 'select', 'textarea', 'option', 'optgroup', 'datalist', 'output', 'progress', 'meter',
  'head', 'link', 'meta', 'base', 'title', 'nav', 'aside', 'footer', 'dialog', 'menu', 'audio', 'video',
  'map', 'area', 'frame', 'frameset', 'portal', 'figcaption',
]);

// Landmarks a `<main>` may not be in (HTML's content model): one that holds it was left unclosed.
const UNCLOSED_LANDMARKS = new Set(['aside', 'nav', 'footer', 'header']);

const CHROME_ROLES = new Set([
  'navigation', 'banner', 'contentinfo', 'complementary', 'dialog', 'alertdialog', 'menu', 'menubar',
  'search', 'toolbar', 'tooltip', 'tablist', 'directory',
]);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

/**
 * Class/id words that name page furniture. Long words match inside a longer name
 * (`c-sidebar__inner`, `relatedStories`); short ones only as a whole dash/underscore-delimited part.
 */
const CHROME_CLASS = new RegExp(
  [
    'sidebar', 'side-bar', 'breadcrumb', 'disqus', 'newsletter', 'related', 'recommend', 'social', 'sponsor',
    'advert', 'cookie', 'consent', 'gdpr', 'popup', 'pop-up', 'pagination', 'paginat', 'promo', 'masthead',
    'outbrain', 'taboola', 'skyscraper', 'trending', 'subscri', 'signup', 'sign-up', 'most-popular', 'mostpopular',
    'more-stories', 'morestories', 'read-more', 'readmore', 'share', 'sharing', 'shoutbox', 'comment-form',
    'comments', 'commentlist', 'comment-list', 'respond', 'byline', 'dateline', 'timestamp', 'author-bio',
    'authorbio', 'author-info', 'visually-hidden', 'visuallyhidden', 'hidden-visually', 'sr-only', 'screen-reader', 'screenreader', 'offscreen', 'a11y-hidden', 'assistive-text',
    'skip-link', 'skiplink', 'toolbar', 'print-only', 'newsfeed', 'jump-link', 'ad-slot', 'adslot', 'adunit',
    'ad-unit', 'ad-container', 'ad-wrapper', 'dfp-', 'gpt-ad', 'banner', 'modal', 'overlay', 'lightbox', 'caption',
    'credit', 'disclaimer', 'disclosure', 'fine-print', 'fineprint', 'announcement[-_]?bar', 'pickup-availab',
  ].join('|') +
    '|(?:^|[\\s_-])(?:ad|ads|nav|navbar|menu|footer|header|tags|tag-list|widget|author|share|social|rss|' +
    'breaking|extra|supplemental|community|remark|pager|cta|comment|login|search|rating|reactions|tools)(?=$|[\\s_-])' +
    // Text for screen readers only, clipped to nothing on screen (eBay's `clipped`; not `clipped-text`).
    '|(?:^|\\s)clipped(?=$|\\s)',
);

/**
 * On a table, a header or footer that sticks or stays fixed is its own header row or footer row
 * (Wikipedia's `wikitable sortable sticky-header`), not the page's banner.
 */
const TABLE_PART = /(?:^|\s)\S*(?:sticky|fixed|floating|frozen|freeze)[-_]?(?:header|footer|head|foot)\S*/g;

/**
 * Class words that style a block's layout, not name its role: `no-extra-padding`, `has-sidebar`,
 * `with-header`, `footer-spacing` (a page builder's column named so held a product's description),
 * `kt-pane-header-alignment-left`, `…-position-…` (an accordion's panes, not a header), any word
 * holding `layout` (`c-layout-sidebar-left` wraps a page laid out with a left sidebar), and a
 * section of the sidebar type (Shopware's `cms-section-sidebar` holds the sidebar and the listing).
 */
// Names of a block's layout or place, not its role; and an item's extra content (PrestaShop's
// `product__extra-content` sections: "extra" alone names furniture).
const LAYOUT_MODIFIER = /(?:^|\s)(?:no|has|with|without)-\S*|(?:^|\s)\S*layout\S*|(?:^|\s)\S*section-sidebar\S*|(?:^|\s)\S*-(?:padding|margin|spacing|gap)(?=\s|$)|(?:^|\s)\S*-(?:alignment|align|position)(?:-\S*)?(?=\s|$)|(?:^|\s)\S*extra[-_](?:\d|content|info|information|details|description)\S*/g;

/** Class/id names of text for screen readers only (also among CHROME_CLASS). */
const SCREEN_READER_ONLY = /visually-?hidden|hidden-visually|sr-only|screen-?reader|a11y-hidden|assistive-text|(?:^|\s)clipped(?=$|\s)/;

/**
 * The same furniture named in the site's own language (comments, share, related, advertising,
 * footer, read-also boxes): `comentarios`, `commentaires`, `kommentare`, `compartilhar`,
 * `relacionadas`, `correlati`, `publicidad`, `werbung`, `rodape`, `leia-tambem`…
 */
const NATIVE_CHROME_CLASS = new RegExp(
  [
    'comentari', 'commentaire', 'commenti', 'kommentar', 'komentarz', 'коммент', 'yorum', 'reacties', 'compartilh', 'compartir', 'partage', 'condivi', 'udostepni',
    'relacionad', 'correlat', 'similaire', 'aehnlich', 'ähnlich', 'verwandt', 'powiazan', 'publicidad', 'publicite', 'publicité', 'pubblicit', 'werbung', 'reklam',
    'rodape', 'pie-de-pagina', 'piede', 'fusszeile', 'stopka', 'barra-lateral', 'seitenleiste', 'leia-tambem', 'veja-tambem', 'lee-tambien', 'lire-aussi', 'leggi-anche', 'lesen-sie-auch', 'czytaj-takze',
  ].join('|'),
);

/** Class/id names of comments, in English and the sites' own languages (see NATIVE_CHROME_CLASS). */
export const COMMENT_NAMES = /[^\s]*(?:comment|disqus|respond|comentari|commentaire|commenti|kommentar|komentarz|коммент|yorum|reacties)[^\s]*/g;

/** Class/id names of a post's author and date line: on a thread, part of each post. */
export const POST_LINE_NAMES = /[^\s]*(?:author|byline|dateline|timestamp)[^\s]*/g;

/**
 * Class/id names of a post's furniture on a forum thread: the poster's title or flair, rank, stats and
 * join date, avatar, signature, reactions bar, "last edited" line (the author's name and the
 * post's date stay).
 */
const THREAD_FURNITURE = /(?:^|\s)flair(?=$|[\s_-])|(?:author|user)-?flair|user-?title|user-?extras|(?:user|author|poster|member)[-_]?stat(?:istic)?s|(?:team|user|member)[-_]?role|user-?rank|post-?rank|user-?banner|user-?blurb|avatar|signature|reactions-?bar|reactions-?list|last-?edit/;

/** Class/id words that name the content: an element named both ways is kept (scoring decides). */
const CONTENT_CLASS = /article|content|(?:^|[\s_-])(?:main|body|entry|story|text|prose|markdown)(?=$|[\s_-])/;

/** Tags a class/id rule never drops (the page's frame, or its content by definition). */
const NEVER_DROPPED_BY_CLASS = new Set(['html', 'body', 'main', 'article', 'a', 'tr', 'td', 'th', 'tbody', 'thead', 'code', 'pre']);

export interface PrepareOptions {
  /** Drop elements whose class/id names page furniture (false in the lenient pass). */
  classRules: boolean;
  /** Elements removed by the caller's `exclude_tags` selectors. */
  excluded?: ReadonlySet<DomNode>;
  /** Keep hidden tab and accordion panels (a product page's description, specifications and care tabs). */
  hiddenPanels?: boolean;
  /**
   * Keep blocks hidden by the `hidden` attribute or an inline style (not `aria-hidden`): set on a
   * page that shows almost nothing until its scripts reveal the content they hid.
   */
  revealHidden?: boolean;
  /** A forum or Q&A thread: blocks named for comments are its posts, not furniture. */
  commentsAreContent?: boolean;
  /** A product page: a block opening with a reviews or questions heading is its shoppers' posts (related-sections.ts). */
  reviewsOut?: boolean;
  /** Text of paragraphs inside a link (a card that is one link) is not link text. */
  blockLinks?: boolean;
  /** The words of the page's URL path, lower case (pathWords): a furniture name the path gives the page names its content (see strongChrome). */
  pathWords?: readonly string[];
}

// A tab or accordion panel: hidden until its tab is chosen, content all the same.
const PANEL_CLASS = /(?:^|[\s_-])(?:tab-?pane|tab-?panel|tabpanel|tab-?content|tabs?__(?:panel|content)|accordion(?:-|__)?(?:body|content|panel|collapse|collapsible|inner|answer)|faq-?(?:answer|body|content)|collapse|panel-collapse|product-?tabs?)(?=$|[\s_-])/;

/**
 * Whether `el` is a tab or accordion panel: by its role (a tab panel, or a region labelled by its
 * header as in the ARIA accordion pattern), its class, or its place in a `<details>`.
 */
function isPanel(el: DomNode): boolean {
  const role = el.attribs?.role;
  // A closed menu under its toggle (a sort menu's choices) is a menu, whatever opens it.
  if (role && MENU_ROLES.has(role)) return false;
  return role === 'tabpanel' || (role === 'region' && !!el.attribs?.['aria-labelledby']) || PANEL_CLASS.test(classAndId(el)) || isDisclosurePanel(el) || tabsHolderPanel(el) || MORE_PANEL.test(`${el.attribs?.class ?? ''} ${el.attribs?.['data-test'] ?? ''} ${el.attribs?.['data-testid'] ?? ''}`) || collapsedGroup(el);
}

// The collapsed rest of a section, shown by its "See all" or "Read more" button, by its class or its
// test hook (`specifications__more`, `data-test="seo-content-more"`,
// `pdp_details__more`, `read-more-content`). Not a menu's overflow ("nav-more", "dropdown-more").
const MORE_PANEL = /(?:^|\s)(?![\w-]*(?:nav|menu|dropdown))[\w-]*(?:__|-)more(?:-(?:content|text|details|info))?(?=\s|$)/i;

/**
 * A hidden group of a list of groups whose first ones are shown (a marketplace's specification
 * groups after "General", hidden until "Read More"): its first class is a shown sibling's, and it
 * holds a table or a definition list.
 */
function collapsedGroup(el: DomNode): boolean {
  const first = el.attribs?.class?.trim().split(/\s+/, 1)[0];
  if (!first) return false;
  const siblings = el.parent?.children ?? [];
  let shownAlike = false;
  for (let i = siblingIndex(el) - 1, seen = 0; i >= 0 && seen < MAX_GROUP_LOOKBACK && !shownAlike; i--) {
    const c = siblings[i]!;
    if (c.type !== 'tag') continue;
    seen++;
    const a = c.attribs ?? {};
    shownAlike = c.name === el.name && a.class?.trim().split(/\s+/, 1)[0] === first && !hiddenByAttribute(a);
  }
  return shownAlike && holdsElement(el, SPEC_BLOCKS, 3);
}
const MAX_GROUP_LOOKBACK = 12;

/** Whether an element's own attributes hide it from the eye (`hidden`, an inline `display:none` or `visibility:hidden`). */
function hiddenByAttribute(a: Record<string, string>): boolean {
  return a.hidden !== undefined || (!!a.style && HIDDEN_STYLE.test(a.style));
}
const SPEC_BLOCKS: ReadonlySet<string> = new Set(['table', 'dl']);

const MENU_ROLES = new Set(['menu', 'menubar', 'listbox']);

// A block of tab panels by its name (Lightspeed's `div.tabsPages` of `div.page`s, `div.tab-container`).
const TABS_HOLDER = /(?:^|[\s_-])tabs?(?:pages?|panes?|panels?|contents?|body|bodies|container|wrap(?:per)?)?(?=$|[\s_-])/;
const MAX_TAB_PANELS = 30;

/**
 * Whether `el` is one of the panels of a block named for tabs: its siblings are all alike (the
 * same element), one of them at least shown (the chosen tab's). Not a page's modals: the body
 * named for a mobile tab bar (`page-has-mobile-tabs`) holds every dialog.
 */
function tabsHolderPanel(el: DomNode): boolean {
  const p = el.parent;
  if (!p || p.name === 'body' || p.name === 'html' || !TABS_HOLDER.test(classAndId(p))) return false;
  let panels = 0;
  let shown = false;
  for (const c of p.children ?? []) {
    if (c.type !== 'tag') continue;
    if (c.name !== el.name || ++panels > MAX_TAB_PANELS) return false;
    const a = c.attribs ?? {};
    if (!hiddenByAttribute(a) && a['aria-hidden'] !== 'true') shown = true;
  }
  return panels >= 2 && shown;
}

/**
 * A block transparent until the pointer is over it or its card (utility classes: `opacity-0` with
 * `hover:opacity-100` or `group-hover:opacity-100`): a card's hover overlay ("View details", "Quick
 * view"), seen only by a mouse. A block faded in by a script (`opacity-0` alone) is content.
 */
function hoverOnly(cls: string): boolean {
  return cls.includes('opacity-0') && TRANSPARENT.test(cls) && HOVER_SHOWN.test(cls);
}
/**
 * The price form a Shopify theme (Dawn and the themes built on it) does not show: every card and
 * buy box writes both a regular and a sale price, and its stylesheet shows `price__sale` only in a
 * `price--on-sale` container and `price__regular` only outside one. Without it every price read
 * twice ("$19.99 $19.99"), with "Regular price" and "Sale price" labels.
 */
function offPrice(el: DomNode, cls: string): boolean {
  if (!cls.includes('price__')) return false;
  const sale = PRICE_SALE.test(cls);
  if (!sale && !PRICE_REGULAR.test(cls)) return false;
  // The price container: up to three levels up (`price > price__container > price__sale`).
  let onSale = false;
  for (let p = el.parent, i = 0; p && i < 3 && !onSale; p = p.parent, i++) onSale = !!p.attribs?.class && ON_SALE.test(p.attribs.class);
  return sale ? !onSale : onSale;
}
const PRICE_SALE = /(?:^|\s)price__sale(?:\s|$)/;
const PRICE_REGULAR = /(?:^|\s)price__regular(?:\s|$)/;
const ON_SALE = /(?:^|\s)price--on-sale(?:\s|$)/;

const TRANSPARENT = /(?:^|\s)opacity-0(?:\s|$)/;
const HOVER_SHOWN = /(?:^|\s)(?:group-)?hover:opacity-100(?:\s|$)/;

/**
 * A block a page's framework shows only when a condition holds, hidden until the framework
 * starts (Vue's `v-cloak`, Alpine's `x-cloak`: `[v-cloak] { display: none }` is their documented
 * rule) and shown by a condition on the page's state (`v-if`, `v-show`, `x-show`): a dialog, a
 * form's success and error messages, a drop-down. What the condition says is not known without
 * running the page, and such blocks are closed when the page is read; a cloaked block without a
 * condition (an app's root, shown once it starts) is not one.
 */
function cloakedCondition(a: Record<string, string>): boolean {
  return (a['v-cloak'] !== undefined || a['x-cloak'] !== undefined) && (a['v-if'] !== undefined || a['v-show'] !== undefined || a['x-show'] !== undefined);
}

/**
 * A tab list holds tabs; Bootstrap's accordion markup puts `role="tablist"` on the whole accordion,
 * its panels (`role="tabpanel"`) and their text inside: that is no list of tabs (a podcast's
 * transcript, a product's details). Looks at most MAX_TABLIST_WALK nodes, and no more than the
 * pass's prose budget has left (a page of nested tab lists).
 */
function holdsTabPanel(el: DomNode, budget: { left: number }): boolean {
  const stack: DomNode[] = [...(el.children ?? [])];
  for (let seen = 0; stack.length && seen < MAX_TABLIST_WALK && --budget.left >= 0; seen++) {
    const n = stack.pop()!;
    if (n.type !== 'tag') continue;
    if (n.attribs?.role?.toLowerCase() === 'tabpanel') return true;
    if (n.children) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return false;
}

const MAX_TABLIST_WALK = 2_000;

/**
 * Whether a closed `<details>` is a drop-down menu, not a disclosure of content (a FAQ's answer, a
 * product's care notes): its body is a menu (`role="menu"` or `"listbox"`, a `…-menu` element such
 * as GitHub's `<details-menu>`) or a list of links (ten or more, four fifths of its text): a
 * filter's choices on a listing ("Spoken language: Any" and 234 languages). Looks at most
 * MAX_TABLIST_WALK nodes, and no more than the pass's prose budget has left.
 */
function closedMenu(el: DomNode, budget: { left: number }): boolean {
  const stack: DomNode[] = (el.children ?? []).filter((c) => c.name !== 'summary').reverse();
  let text = 0;
  let linkText = 0;
  let links = 0;
  const inLink = new Set<DomNode>();
  for (let seen = 0; stack.length && seen < MAX_TABLIST_WALK && --budget.left >= 0; seen++) {
    const n = stack.pop()!;
    if (n.type === 'text') {
      const len = (n.data ?? '').trim().length;
      text += len;
      if (n.parent && inLink.has(n.parent)) linkText += len;
      continue;
    }
    if (n.type !== 'tag') continue;
    const name = n.name ?? '';
    const role = n.attribs?.role?.toLowerCase();
    if (role === 'menu' || role === 'listbox' || name.endsWith('-menu')) return true;
    if (name === 'a' && n.attribs?.href !== undefined) links++;
    if (name === 'a' || (n.parent && inLink.has(n.parent))) inLink.add(n);
    if (n.children) for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return links >= 10 && linkText >= text * 0.8;
}

/** Whether an element (and everything under it) is never main content. */
export function isNonContent(el: DomNode, insideArticle: boolean, opts: PrepareOptions, frame?: ReadonlySet<DomNode>): boolean {
  const name = el.name ?? '';
  // A landmark that holds the page's <main> is one left unclosed (the parser nests the rest of
  // the page in it, as a browser does): not furniture.
  if (NEVER_CONTENT.has(name)) return !(name === 'button' && isDisclosureTrigger(el)) && !(UNCLOSED_LANDMARKS.has(name) && frame?.has(el)) && !(name === 'figcaption' && quoteAttribution(el));
  if (opts.excluded?.has(el)) return true;
  const a = el.attribs;
  if (!a) return false;
  if (name === 'header' && !insideArticle && !frame?.has(el)) return true;
  // A product page's reviews, also in a hidden tab panel (a panel is otherwise kept, shown or not).
  if (opts.reviewsOut && SECTION_TAGS.has(name) && opensReviewsSection(el)) return true;
  const styleHidden = (!!a.style && HIDDEN_STYLE.test(a.style)) || (!!a.class && (hoverOnly(a.class) || offPrice(el, a.class)));
  if (a.hidden !== undefined || styleHidden || cloakedCondition(a) || (a['aria-hidden'] === 'true' && !modalTrap(el, frame) && !mouseOnlyLink(el) && !waitingSlide(el) && !labelledByLink(el))) {
    // Revealed: judged like a shown block (its role and class/id rules below).
    if (!opts.revealHidden || a['aria-hidden'] === 'true') return !(opts.hiddenPanels && isPanel(el));
  }
  const role = a.role?.toLowerCase();
  if (role && CHROME_ROLES.has(role) && !(role === 'tablist' && holdsTabPanel(el, budgetOf(opts)))) return true;
  if (name === 'details' && a.open === undefined && closedMenu(el, budgetOf(opts))) return true;
  if (name === 'a' && isSkipLink(el)) return true;
  if (CONTROL_HOLDERS.has(name) && isCardControl(shortOwnText(el))) return true;
  if ((name === 'ul' || name === 'ol') && optionList(el)) return true;
  if (isTicker(el)) return true;
  if (isSponsoredCard(el)) return true;
  if ((name === 'dt' || name === 'dd') && machineField(el)) return true;
  // A thread's post furniture (user titles, stats, avatars, signatures, a profile box's details),
  // with or without the class rules: a thread read leniently has it too. Named by class or id, or
  // by the role the forum's scripts know it by (Invision's data-role="memberSignature").
  if (opts.commentsAreContent && !NEVER_DROPPED_BY_CLASS.has(name) && !frame?.has(el) && (THREAD_FURNITURE.test(classAndId(el)) || THREAD_FURNITURE.test(a['data-role']?.toLowerCase() ?? '') || profileDetail(el) || replySubject(el))) return true;
  // A label for screen readers only beside shown text is not shown, with or without the class
  // rules: a grid's "Regular price", "Sale price" beside each card's price. When the class rules
  // are off, one that says more stays: alone in its block it stands for an icon ("Yes" for a tick
  // in a comparison table), and one with figures may be the only copy of a price whose shown
  // form is hidden from assistive technology ("Original price was: $30.00").
  if (!opts.classRules) return !NEVER_DROPPED_BY_CLASS.has(name) && !frame?.has(el) && SCREEN_READER_ONLY.test(classAndId(el)) && srLabel(el);
  if (name === 'a') return isCallToAction(el);
  if (NEVER_DROPPED_BY_CLASS.has(name) || frame?.has(el)) return false;
  if (a.itemprop === 'articleBody' || a.itemprop === 'text') return false;
  // An id that is the slug of the block's own heading names its title, not its role (doc-frame.ts).
  // So does an id the page's tabs lead to ("nav-description": doc-frame.ts tabTarget).
  let names = (idNamesHeading(el) || tabTarget(el) ? (a.class ?? '').toLowerCase() : classAndId(el)).replace(LAYOUT_MODIFIER, ' ');
  if (name === 'table') names = names.replace(TABLE_PART, ' ');
  // A page builder's content widget (Elementor's image box, icon box, text editor, icon list,
  // testimonial, price table, accordion…) and its inner container are named widgets like every
  // block of the page: those names say nothing of its role (a menu or sidebar widget is named so).
  if (names.includes('elementor-widget') && (BUILDER_CONTENT.test(names) || (names.includes('elementor-widget-container') && BUILDER_CONTENT.test(classAndId(el.parent ?? el))))) names = names.replace(BUILDER_NAMES, ' ');
  if (opts.commentsAreContent) {
    names = names.replace(COMMENT_NAMES, ' ').replace(POST_LINE_NAMES, ' ');
  }
  if (names === '' || !chromeNames(names)) return false;
  if (opts.pathWords?.length && !chromeNames(withoutPathWords(names, opts.pathWords))) return false;
  if (!opts.reviewsOut && weakChrome(names) && (proseRegion(el, opts) || proseRegionAbove(el) || soleHeading(el))) return false;
  // Any other furniture name on a block that holds three paragraphs of prose names its layout (an
  // `inline-and-sidebar-container` that holds the story), not furniture. Tune half 0.8711 -> 0.8729
  // (6 up, 2 down; a story from 0.05 to 0.995), check half 0.8641 -> 0.8638 (3 up, 2 down); article
  // benchmark 0.975 -> 0.976.
  if (!opts.reviewsOut && !strongChrome(names, opts.pathWords) && holdsProse(el, 3, budgetOf(opts))) return false;
  // In the article, a block named a header that is or holds a heading is the article's own (as a <header> there).
  return !(insideArticle && articleHeader(el, names, chromeNames));
}

/**
 * A list of choices: most of its items (three or more) are a checkbox or a radio button with its
 * short label, as a grid's facets ("Size", "Color", "Price" with a box to tick for each value) and a
 * product's options are written. Choices to make, not content to read, on any kind of page. A
 * task list's boxes are disabled (GitHub, markdown renderers): those are its content.
 */
function optionList(el: DomNode): boolean {
  const { items, choices } = listChoices(el);
  return items >= 3 && choices * 4 >= items * 3;
}

/**
 * The items of a list and those that are a choice (an enabled checkbox or radio button with a
 * short label). The score walk counts a dropped list's choices as its parent's form controls, so a
 * facet panel's block (its headings, a "Filter" line) still reads as a form to the cleaner.
 */
export function listChoices(el: DomNode): { items: number; choices: number } {
  let items = 0;
  let choices = 0;
  for (const c of el.children ?? []) {
    if (c.name !== 'li') continue;
    items++;
    // A short label: a box beside a long block is a CSS toggle (a thread's collapsible comments).
    if (hasChoice(c, 4) && leadingText(c).trim().length <= 50) choices++;
  }
  return { items, choices };
}

/** Whether `n` holds an enabled checkbox or radio button within `depth` levels. */
function hasChoice(n: DomNode, depth: number): boolean {
  for (const c of n.children ?? []) {
    if (c.type !== 'tag') continue;
    if (c.name === 'input') {
      const type = c.attribs?.type?.toLowerCase();
      if ((type === 'checkbox' || type === 'radio') && c.attribs?.disabled === undefined) return true;
    } else if (depth > 1 && hasChoice(c, depth - 1)) return true;
  }
  return false;
}

/**
 * Whether `el` (text for screen readers only) goes when the class rules are off: a short label
 * without figures beside shown text ("Regular price"), or a long text (a hidden copy of a card's
 * title and blurb, a hidden menu).
 */
function srLabel(el: DomNode): boolean {
  const text = leadingText(el).trim();
  return text.length > 60 || (text.length <= 40 && !/\d/.test(text) && besideShownText(el));
}

/** Whether a sibling of `el` shows text (not hidden, not for screen readers only). */
function besideShownText(el: DomNode): boolean {
  for (const c of el.parent?.children ?? []) {
    if (c === el) continue;
    if (c.type === 'text') {
      if ((c.data ?? '').trim()) return true;
      continue;
    }
    const a = c.attribs;
    if (c.type !== 'tag' || !a || NEVER_CONTENT.has(c.name ?? '')) continue;
    if (a['aria-hidden'] === 'true' || hiddenByAttribute(a) || SCREEN_READER_ONLY.test(classAndId(c))) continue;
    if (leadingText(c).trim()) return true;
  }
  return false;
}

/**
 * Whether `el` is a link shown to the eye and kept from assistive technology and the keyboard
 * (`aria-hidden="true" tabindex="-1"`): a card's second link to the same place (its picture, its
 * blurb) that a screen reader would announce twice. Shown, so read like any link.
 */
function mouseOnlyLink(el: DomNode): boolean {
  return el.name === 'a' && el.attribs?.href !== undefined && el.attribs?.tabindex === '-1';
}

/**
 * Whether a `<figcaption>` names who said its figure's quote (a testimonial: a `<blockquote>` and
 * no picture in the figure), not a picture's caption or credit.
 */
function quoteAttribution(el: DomNode): boolean {
  const fig = el.parent;
  if (fig?.name !== 'figure') return false;
  let quote = false;
  for (const c of fig.children ?? []) {
    if (c.name === 'blockquote') quote = true;
    else if (c.name === 'img' || c.name === 'picture' || c.name === 'video' || c.name === 'svg') return false;
  }
  return quote;
}

// A carousel's slide by its role description or its library's class; a copy the library made to
// loop the carousel (`slick-cloned`, `swiper-slide-duplicate`) says again what a slide says.
const SLIDE_CLASS = /(?:^|\s)(?:slide|swiper-slide|slick-slide|carousel-item|splide__slide|glide__slide|flickity-cell|embla__slide|keen-slider__slide)(?:\s|$)/;
const SLIDE_COPY = /(?:^|\s)(?:slick-cloned|swiper-slide-duplicate|splide__slide--clone|glide__slide--clone)(?:\s|$)/;

/**
 * Whether `aria-hidden` on `el` only keeps a link's shown text from being read twice: the link
 * around it (a few levels up) says the same to assistive technology in its `aria-label` (a grid's
 * tile: `<a aria-label="Cami midi dress; Price: £28.00">` around the name and price the eye reads).
 * Shown, so read like the rest of the page.
 */
function labelledByLink(el: DomNode): boolean {
  let p = el.parent;
  for (let i = 0; p && i < LABELLING_LINK_DEPTH; i++, p = p.parent) {
    if (p.name === 'a') return !!p.attribs?.['aria-label']?.trim();
  }
  return false;
}
const LABELLING_LINK_DEPTH = 3;

/**
 * Whether `aria-hidden` on `el` only says that it is a carousel's slide not in view yet: the
 * carousel hides every slide but the current one from assistive technology, and turns to the
 * others (testimonials, features) by itself or by a click. Their words are the page's all the same.
 */
function waitingSlide(el: DomNode): boolean {
  const cls = el.attribs?.class ?? '';
  if (SLIDE_COPY.test(cls)) return false;
  return el.attribs?.['aria-roledescription']?.toLowerCase() === 'slide' || SLIDE_CLASS.test(cls);
}

/**
 * Whether `aria-hidden` on `el` is a modal's focus trap: a dialog (a consent banner, a sign-up
 * box) open over the page when it was saved hides everything else from assistive technology,
 * the page's `<main>` and the wrappers around it included. They are the content all the same.
 */
function modalTrap(el: DomNode, frame?: ReadonlySet<DomNode>): boolean {
  return el.name === 'main' || el.attribs?.role?.toLowerCase() === 'main' || (frame?.has(el) ?? false);
}

// A post's profile box (phpBB's `dl.postprofile`, vBulletin's `userinfo`): its author stays.
const POST_PROFILE = /post-?profile|user-?info|poster-?info|author-?profile/;

/** Whether `el` is a detail (`dd`) of a post's profile box: rank, post count, join date, motto. */
function profileDetail(el: DomNode): boolean {
  const p = el.parent;
  return el.name === 'dd' && p?.name === 'dl' && POST_PROFILE.test(classAndId(p));
}

// A reply's subject line ("Re: the thread's title"; Aw:, Sv:, Odp:… in other languages).
const REPLY_SUBJECT = /^\s*(?:re|aw|sv|odp|ynt)\s*(?:\[\d+\])?\s*:/i;

/** Whether `el` is a heading that is a reply's subject line (a thread's title again, in each post). */
function replySubject(el: DomNode): boolean {
  return HEADING_TAGS.has(el.name ?? '') && REPLY_SUBJECT.test(leadingText(el));
}

// A skip link's words ("Skip to main content", "Zum Inhalt springen", "Aller au contenu"), and a
// link back up the page ("Back to top", "Back to Project" after each entry of a long list, "↑").
const SKIP_LINK = /^\s*(?:skip|jump)\s+(?:to|over|past|navigation|nav\b|links|listing|carousel|content|section)|^\s*(?:back|return)\s+to\s|^\s*(?:(?:back\s+)?to\s+)?top(?:\s+of\s+(?:the\s+)?page)?\s*[↑⬆]?\s*$|^\s*[↑⬆]\s*$|^\s*(?:zum|zur)\s+\p{L}+\s+(?:springen|wechseln)|^\s*(?:aller|passer|sauter)\s+(?:au|à la|aux)\s|^\s*(?:saltar|ir)\s+al?\s+(?:contenido|navegación|men[uú])|^\s*(?:pular|ir)\s+para\s+o\s|^\s*(?:vai|salta|passa)\s+al\s+(?:contenuto|menu)|^\s*(?:naar|ga naar)\s+(?:de\s+)?(?:inhoud|hoofdinhoud)|^\s*przejdź\s+do\s|^\s*перейти\s+к\s/iu;

/**
 * A skip link: a link to a place on the same page ("#main") that says to skip to it, there for
 * keyboard users and shown only when focused, or to go back up to it. Not content on any kind of page.
 */
function isSkipLink(el: DomNode): boolean {
  const href = el.attribs?.href?.trim() ?? '';
  if (!href.startsWith('#')) return false;
  const text = leadingText(el);
  return text.length <= 60 && SKIP_LINK.test(text);
}

// Furniture words that also name a layout slot or a component kind (a page's `page-footer` area that
// holds a story's list of venues, a `product-widget` that holds a review's paragraphs): a block
// named so that holds a paragraph of prose is content, and so are its parts (a page builder's
// widgets inside it). Not on a product page (its widgets beside the item are other products').
// WCXB development pages, tune half 0.8671 -> 0.8711 (articles 0.950 -> 0.956, 9 pages up, none
// down), check half 0.8641 -> 0.8641 (articles 0.940 -> 0.942; 7 up, 6 down); article benchmark
// 0.974 -> 0.975.
const WEAK_CHROME = /(?:^|[\s_-])(?:widget|footer|extra|supplemental)(?=$|[\s_-])/g;

/**
 * Whether the names hold a furniture word that stays furniture around prose, unless the page's own
 * URL path says the page is that thing: on `/newsletter/foundational-fitness-protocol` the block
 * named `newsletter-content` is the letter, not a sign-up box; on `/author/jane` the bio is the page.
 */
function strongChrome(names: string, pathWords: readonly string[] | undefined): boolean {
  for (const m of names.matchAll(STRONG_CHROME)) {
    const word = m[0].replace(/^[\s_-]/, '');
    if (!pathWords?.some((part) => part === word || (word.length >= 4 && part.startsWith(word)))) return true;
  }
  return false;
}

/**
 * The words of a URL's path, lower case, for {@link strongChrome}: the first {@link MAX_PATH_WORDS}
 * (a path is a few words; one of thousands is not looked through at every block).
 */
export function pathWords(url: string | undefined): string[] {
  if (!url) return [];
  let path: string;
  try {
    path = new URL(url).pathname.slice(0, 2_000);
  } catch {
    return [];
  }
  try {
    path = decodeURIComponent(path);
  } catch {
    // A malformed escape (or one cut at the end): the words as written.
  }
  return path.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 2).slice(0, MAX_PATH_WORDS);
}

const MAX_PATH_WORDS = 16;

// Furniture whose blocks do hold prose: comments, related stories with their excerpts, an author's
// bio, a newsletter or promotion box, advertising (in English and the sites' own languages).
const STRONG_CHROME = new RegExp(
  [
    'comment', 'disqus', 'respond', 'repl(?:y|ies)', 'reaction', 'remark', 'community', 'related', 'recommend', 'trending', 'popular', 'more-?stories',
    'newsfeed', 'outbrain', 'taboola', 'teaser', 'author', 'bio', 'newsletter', 'subscri', 'promo', 'sponsor', 'advert', '(?:^|[\\s_-])ads?(?=$|[\\s_-])',
    'comentari', 'commentaire', 'commenti', 'kommentar', 'komentarz', 'коммент', 'yorum', 'reacties', 'relacionad', 'correlat', 'similaire', 'aehnlich',
    'ähnlich', 'verwandt', 'powiazan', 'publicidad', 'publicite', 'publicité', 'pubblicit', 'werbung', 'reklam', 'leia-tambem', 'veja-tambem', 'lee-tambien',
    'lire-aussi', 'leggi-anche', 'lesen-sie-auch', 'czytaj-takze',
  ].join('|'),
  'g',
);

/**
 * Whether `el` is a heading in a wrapper or two and nothing else: a page builder's heading
 * component (Elementor's `elementor-widget-heading`, named a widget like every part of the page)
 * is the story's section heading, not furniture; not one naming a related section ("Latest News"
 * over the site's other posts). Looks at a few nodes at most. WCXB development pages: tune
 * 0.8900 unchanged, check 0.8850 unchanged (3 up: a gym story gets its nine section headings back,
 * a marketing page 20 of 27; 2 down: two stories whose references leave out the title a heading
 * widget holds).
 */
function soleHeading(el: DomNode): boolean {
  let node = el;
  for (let level = 0; level < 4; level++) {
    let only: DomNode | undefined;
    for (const c of node.children ?? []) {
      if (c.type === 'text') {
        if ((c.data ?? '').trim()) return false;
      } else if (c.type === 'tag') {
        if (only) return false;
        only = c;
      }
    }
    if (!only) return false;
    if (HEADING_TAGS.has(only.name ?? '')) return !isSectionHeading(leadingTextOf(only, 80));
    node = only;
  }
  return false;
}

/** Whether `names` are furniture only by a {@link WEAK_CHROME} word. */
function weakChrome(names: string): boolean {
  return !chromeNames(names.replace(WEAK_CHROME, ' '));
}

/** A paragraph of prose: this many characters at least, under a fifth of them in links. */
const PROSE_CHARS = 150;
/** Nodes looked at under one block at most (a name check must stay cheap). */
const PROSE_LOOK = 2000;
/**
 * Nodes looked at by all the prose checks of one pass over a document: blocks named as furniture
 * nested a thousand deep, each over the same long paragraph, cost no more than this.
 */
const PROSE_BUDGET = 100_000;

/** What is left of a pass's {@link PROSE_BUDGET} (one per prepare options object: one per pass). */
const budgets = new WeakMap<object, { left: number }>();
function budgetOf(opts: PrepareOptions): { left: number } {
  let b = budgets.get(opts);
  if (!b) budgets.set(opts, (b = { left: PROSE_BUDGET }));
  return b;
}

const regions = new WeakMap<DomNode, boolean>();
/** {@link holdsProse} (one paragraph), once a node. */
function proseRegion(el: DomNode, opts: PrepareOptions): boolean {
  let r = regions.get(el);
  if (r === undefined) regions.set(el, (r = holdsProse(el, 1, budgetOf(opts))));
  return r;
}
/** Whether a weakly named block above `el` (a few levels) was kept for its prose: its parts are its content. */
function proseRegionAbove(el: DomNode): boolean {
  let level = 0;
  for (let n = el.parent; n && n.type === 'tag' && level < 8; n = n.parent, level++) if (regions.get(n)) return true;
  return false;
}

/**
 * Whether `el` holds `need` paragraphs of prose (a `<p>` of {@link PROSE_CHARS}+ characters, under a
 * fifth in links), looking at {@link PROSE_LOOK} nodes at most and no more than `budget` has left.
 */
function holdsProse(el: DomNode, need: number, budget: { left: number }): boolean {
  let looked = 0;
  let found = 0;
  const look = () => ++looked <= PROSE_LOOK && --budget.left >= 0;
  const measure = (n: DomNode, inLink: boolean, acc: { text: number; link: number }): boolean => {
    for (const c of n.children ?? []) {
      if (!look()) return false;
      if (c.type === 'text') {
        const t = textLength(c.data ?? '');
        acc.text += t;
        if (inLink) acc.link += t;
      } else if (c.type === 'tag' && !measure(c, inLink || c.name === 'a', acc)) return false;
    }
    return true;
  };
  const walk = (n: DomNode): boolean | undefined => {
    for (const c of n.children ?? []) {
      if (c.type !== 'tag') continue;
      if (!look()) return undefined;
      if (c.name === 'p') {
        const acc = { text: 0, link: 0 };
        if (!measure(c, false, acc)) return undefined;
        if (acc.text >= PROSE_CHARS && acc.link * 5 < acc.text && ++found >= need) return true;
      } else if (!NEVER_CONTENT.has(c.name ?? '')) {
        const r = walk(c);
        if (r !== false) return r;
      }
    }
    return false;
  };
  return walk(el) === true;
}

/**
 * The names without the parts that are words of the page's path: a block named for what the page
 * is (`community-tab` on `/vs/community/`, a product called Community) is not named as furniture by
 * that word. Only whole parts of four letters or more.
 */
function withoutPathWords(names: string, pathWords: readonly string[]): string {
  const named = (part: string) => part.length >= MIN_PATH_NAME && pathWords.includes(part);
  if (!pathWords.some((w) => w.length >= MIN_PATH_NAME && names.includes(w))) return names;
  return names.split(/([\s_-]+)/).map((part) => (named(part) ? ' ' : part)).join('');
}
const MIN_PATH_NAME = 4;

/** Elementor's content widgets (see isNonContent), and its own class names. */
const BUILDER_CONTENT = /(?:^|\s)elementor-widget-(?:image-box|icon-box|text-editor|icon-list|testimonial|price-table|price-list|accordion|toggle|tabs|counter|call-to-action|blockquote|flip-box)(?=\s|$)/;
const BUILDER_NAMES = /(?:^|\s)elementor-\S*/g;

function chromeNames(names: string): boolean {
  return (CHROME_CLASS.test(names) || NATIVE_CHROME_CLASS.test(names)) && !CONTENT_CLASS.test(names);
}

const BUTTON_CLASS = /(?:^|[\s_-])(?:btn|button|cta)(?=$|[\s_-])/;

/** A call to action: a link styled as a button, of five words at most ("Get started", "Book a demo"). */
export function isCallToAction(el: DomNode): boolean {
  if (el.name !== 'a' || !BUTTON_CLASS.test(classAndId(el))) return false;
  const text = leadingText(el).trim();
  return text.length <= 60 && text.split(/\s+/).length <= 5;
}

/**
 * A definition list's entry whose term is a machine's key written as plain text (`retail_price_tier1`,
 * `cat_thumb_Navy`: words joined by underscores), and the value after such a term: a store's raw
 * custom fields written out by its theme (image addresses, price tiers), not a label a person wrote.
 */
function machineField(el: DomNode): boolean {
  let dt: DomNode | undefined = el;
  if (el.name === 'dd') {
    dt = undefined;
    const siblings = el.parent?.children ?? [];
    // The term this value belongs to: the nearest `<dt>` before it, past other values of the same term.
    for (let i = siblingIndex(el) - 1, seen = 0; i >= 0 && seen < MAX_VALUES_BACK; i--) {
      const p = siblings[i]!;
      if (p.type !== 'tag') continue;
      seen++;
      if (p.name === 'dt') dt = p;
      if (p.name !== 'dd') break;
    }
    if (!dt) return false;
  }
  // Written as plain text: a documentation page's parameter (`table_name`, `help_text`) is set in
  // code or a link to its reference, and is the content.
  if ((dt.children ?? []).some((c) => c.type === 'tag')) return false;
  const term = leadingTextOf(dt, 60).trim();
  return term.length <= 60 && MACHINE_KEY.test(term);
}
const MAX_VALUES_BACK = 8;
const MACHINE_KEY = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?:_[a-z0-9][a-z0-9 -]*)?\s*:?$/i;

// Elements a card's control is written as (not a heading, a table cell or a definition: "Compare"
// heading a comparison, "Quantity" in a specification table are the page's words).
const CONTROL_HOLDERS = new Set(['a', 'span', 'div', 'label', 'p', 'li', 'small', 'strong', 'b']);

// Longer text (whitespace included) is never one control's line: not read further.
const MAX_CONTROL_TEXT = 200;

/**
 * The text of `n`'s children and grandchildren when it has few and it is short (a control is a
 * word or two in a wrapper or two); '' otherwise. Bounded: at most four nodes on each of the two
 * levels are read, and no more than {@link MAX_CONTROL_TEXT} characters (every paragraph of a
 * page is asked).
 */
function shortOwnText(n: DomNode): string {
  const kids = n.children ?? [];
  if (kids.length > 4) return '';
  let out = '';
  for (const c of kids) {
    if (c.type === 'text') out += c.data ?? '';
    else if (c.type === 'tag') {
      const g = c.children ?? [];
      if (g.length > 4) return '';
      for (const d of g) {
        if (d.type === 'text') out += d.data ?? '';
        else if (d.type === 'tag' && (d.children?.length ?? 0) > 0) return '';
      }
    }
    if (out.length > MAX_CONTROL_TEXT) return '';
  }
  return out;
}

/** The start of `n`'s text, white space collapsed, until more than 60 characters are read (dom.ts leadingText). */
const leadingText = (n: DomNode): string => leadingTextOf(n, 60);

/**
 * The page's frame: the elements around its declared main content (the first `<main>` or
 * `role=main`). A class/id rule never drops them: a layout wrapper named `with_header` or
 * `has-sidebar` holds the whole page, not furniture.
 */
export function mainFrame(root: DomNode): ReadonlySet<DomNode> {
  const find = (n: DomNode): DomNode | undefined => {
    for (const c of n.children ?? []) {
      if (c.type !== 'tag' || (NEVER_CONTENT.has(c.name ?? '') && !UNCLOSED_LANDMARKS.has(c.name ?? ''))) continue;
      if (c.name === 'main' || c.attribs?.role === 'main') return c;
      const m = find(c);
      if (m) return m;
    }
    return undefined;
  };
  const frame = new Set<DomNode>();
  for (let p = find(root)?.parent; p; p = p.parent) frame.add(p);
  return frame;
}

/** Elements that open the article scope (a `<header>` inside them is the article's own). */
export function opensArticle(el: DomNode): boolean {
  const name = el.name;
  if (name === 'article' || name === 'main') return true;
  const a = el.attribs;
  return a?.role === 'main' || a?.itemprop === 'articleBody';
}
