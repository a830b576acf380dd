/**
 * A structural signal of the select and clean phases: a block that opens with the heading of a
 * related-stories section ("You may also like", "Você pode gostar...", "Самые популярные диеты",
 * "関連記事") is that section, whatever follows the heading: teaser cards with a picture, a title
 * link and an excerpt each, which score like prose and, several together, can outscore a short
 * story. The heading is told by its words (boilerplate-text.ts, many languages) or by its class
 * (`related…`, `recommend…`, `popular…`), since the heading itself may be left out as furniture.
 * A block opening with the heading of a comment section is that section too.
 */
import { HEADING_TAGS, classAndId, documentRoot, holdsElement, isElement, siblingIndex, squash, type DomNode } from './dom.js';
import { isCommentsHeading, isSectionHeading, isStoreSectionHeading } from './boilerplate-text.js';

const RELATED_CLASS = /related|recommend|popular|trending|more-?stories|you-?may|also-?like|read-?next|suggest/;
// Elements before the heading that say nothing (scripts, anchors, empty wrappers).
const SILENT = new Set(['script', 'style', 'noscript', 'template', 'link', 'meta', 'a', 'span', 'hr', 'br']);

function plainText(el: DomNode, out: string[] = []): string[] {
  for (const c of el.children ?? []) {
    if (c.type === 'text') out.push(c.data ?? '');
    else if (isElement(c) && c.name !== 'script' && c.name !== 'style') plainText(c, out);
  }
  return out;
}

/**
 * The first heading of `el`, when nothing with text comes before it (looked for nine levels down,
 * through the wrappers a component framework puts around a section's title).
 */
function openingHeading(el: DomNode, depth = 0): DomNode | undefined {
  for (const c of el.children ?? []) {
    if (c.type === 'text') {
      if ((c.data ?? '').trim()) return undefined;
      continue;
    }
    if (!isElement(c)) continue;
    const name = c.name ?? '';
    if (HEADING_TAGS.has(name)) return c;
    if (titleBlock(c)) return c;
    if (SILENT.has(name) && !squash(plainText(c).join(''))) continue;
    // A link within the page ("Back to navigation", "Skip to reviews") before the heading.
    if (name === 'a' && (c.attribs?.href ?? '').startsWith('#')) continue;
    return depth < 8 && name !== 'p' ? openingHeading(c, depth + 1) : undefined;
  }
  return undefined;
}

/**
 * A block written as a section's title without a heading tag: named a title or heading by its
 * class (`block-title`, `section-heading`, Bootstrap's `h4` on a `<p>`), holding only short text,
 * at most in emphasis (Magento's `<div class="block-title"><strong>Customer Reviews</strong></div>`,
 * Shopware's `<p class="h4">Opinie klientów</p>`).
 */
function titleBlock(el: DomNode): boolean {
  if (el.name !== 'div' && el.name !== 'span' && el.name !== 'p') return false;
  if (!/(?:^|[\s_-])(?:title|heading)(?:$|[\s_-])|(?:^|\s)h[1-6](?:$|\s)/i.test(el.attribs?.class ?? '')) return false;
  for (const c of el.children ?? []) if (isElement(c) && !['strong', 'b', 'span', 'em'].includes(c.name ?? '')) return false;
  const text = squash(plainText(el).join(''));
  return text.length > 0 && text.length <= 80;
}

/**
 * The heading `el` opens with and its text, white space squashed: what names the section a block
 * is. None for a heading itself, or when that heading is the page's title (`<h1>`).
 */
function sectionHeading(el: DomNode): { h: DomNode; text: string } | undefined {
  if (HEADING_TAGS.has(el.name ?? '')) return undefined;
  const h = openingHeading(el);
  if (!h || h.name === 'h1') return undefined;
  return { h, text: squash(plainText(h).join('')) };
}

/** Whether `el` holds at least `n` links that go somewhere (teasers link to other pages). */
function hasLinks(el: DomNode, n: number): boolean {
  let found = 0;
  const walk = (x: DomNode): boolean => {
    for (const c of x.children ?? []) {
      if (!isElement(c)) continue;
      if (c.name === 'a' && c.attribs?.href && !c.attribs.href.startsWith('#') && ++found >= n) return true;
      if (walk(c)) return true;
    }
    return false;
  };
  return walk(el);
}

const signatureOf = (n: DomNode) => `${n.name}.${(n.attribs?.class ?? '').trim().split(/\s+/, 1)[0]}`;

/**
 * Whether a block under a "Comments" heading holds comments, not a docs section about code
 * comments: two or more records of one kind (not paragraphs or code), a list of two or more
 * items, or a reply form.
 */
function looksLikeComments(el: DomNode): boolean {
  return holdsRecords(el, 1, true);
}

/**
 * Whether `el` holds two or more records of one kind (not paragraphs or code) or a list of two or
 * more items, looked for `levels` levels down below its children; with `withForm`, a reply form
 * counts too.
 */
function holdsRecords(el: DomNode, levels: number, withForm = false, lists = true): boolean {
  const seen = new Map<string, number>();
  let form = false;
  const walk = (x: DomNode, depth: number): boolean => {
    for (const c of x.children ?? []) {
      if (!isElement(c)) continue;
      const name = c.name ?? '';
      if (name === 'form' || name === 'textarea') form = true;
      if (lists && (name === 'ul' || name === 'ol') && (c.children ?? []).filter((k) => k.name === 'li').length >= 2) return true;
      if (!RECORD_TAGS.has(name) || (!lists && name === 'li')) continue;
      const sig = signatureOf(c);
      const n = (seen.get(`${depth}/${sig}`) ?? 0) + 1;
      seen.set(`${depth}/${sig}`, n);
      if (n >= 2) return true;
      if (depth < levels && walk(c, depth + 1)) return true;
    }
    return false;
  };
  return walk(el, 0) || (withForm && form);
}
const RECORD_TAGS = new Set(['div', 'article', 'section', 'li', 'dl']);

/**
 * Whether `el` is a related-stories section: it opens with such a heading (never the page's
 * `<h1>`: "Most popular dog breeds" may be the story's own title) and links to two pages or more;
 * or a comment section, opening with its heading ("3 comentários", "Kommentare"), unless
 * `commentsAreContent` (a forum thread's replies). With `headingBefore`, also a block of cards
 * right after such a heading standing alone (not on a listing, whose own cards may follow a
 * "Latest news" title).
 */
export function opensRelatedSection(el: DomNode, commentsAreContent = false, headingBefore = true): boolean {
  if (HEADING_TAGS.has(el.name ?? '')) return false;
  if (headingBefore && followsRelatedHeading(el)) return true;
  const opening = sectionHeading(el);
  if (!opening) return false;
  const { h, text } = opening;
  // A thread's comment section is its replies: content.
  if (isCommentsHeading(text)) return !commentsAreContent && looksLikeComments(el);
  const store = isStoreSectionHeading(text);
  if (!(store || isSectionHeading(text) || (text.length <= 80 && RELATED_CLASS.test(classAndId(h))))) return false;
  // A store's cards of other products may open them by script, with no anchor to follow; one
  // linked card is enough under a store's heading ("Your Recently Viewed Items" and one item).
  return hasLinks(el, store ? 1 : 2) || (store && holdsRecords(el, 5));
}

// The heading of a store's reviews or questions section ("Customer reviews", "Reviews (76)",
// "Ratings & reviews", "Questions & answers", "10 Customer ratings"). Not the bare word "Review":
// a book's editorial review (the critics' praise under "Editorial Reviews") is the item's content.
const REVIEWS_HEADING = /^(?!review\s*$)(?:\d[\d.,]*\s+)?(?:(?:customer|product|user|guest|verified)\s+)?(?:reviews?|ratings?(?:\s*(?:&|and)\s*reviews?)?)\b|^(?:customer\s+)?(?:questions?\s*(?:&|and)\s*answers?|q\s*&\s*a)\b|^questions?\s+about\s+this\s+(?:product|item)\b/i;

// The same in other languages, as the whole heading with at most a count ("Kundenbewertungen",
// "Bewertungen (2)", "Avis clients", "12 avis", "Opiniones de clientes", "Recensioni", "Отзывы"):
// these words also open other sections ("Avis importants"), so nothing may follow but the count.
const LOCAL_REVIEWS_HEADING = new RegExp(
  `^(?:\\d[\\d.,]*\\s+)?(?:${[
    '(?:kunden)?bewertungen', 'kundenmeinungen', 'kundenrezensionen', 'rezensionen', 'erfahrungsberichte',
    'avis(?:\\s+(?:des\\s+)?clients?)?', 'commentaires\\s+(?:des\\s+)?clients', 'opiniones(?:\\s+de\\s+(?:los\\s+)?clientes)?', 'reseñas(?:\\s+de\\s+(?:los\\s+)?clientes)?', 'valoraciones',
    'recensioni(?:\\s+(?:dei\\s+)?clienti)?', 'opinioni(?:\\s+dei\\s+clienti)?', '(?:klant)?beoordelingen', 'klantreviews', 'avaliações(?:\\s+(?:de|dos)\\s+clientes)?', 'opini(?:e|ones)\\s+klientów', 'opinie(?:\\s+o\\s+produkcie)?', 'oceny(?:\\s+(?:i\\s+opinie|produktu))?', 'produktbewertungen', 'avis\\s+sur\\s+(?:le|ce)\\s+produit',
    'отзывы(?:\\s+(?:покупателей|о\\s+товаре))?', 'вопросы(?:\\s+и\\s+ответы)?(?:\\s+о\\s+товаре)?', 'ürün\\s+soru\\s+(?:&|ve)\\s+cevapları', 'soru(?:lar)?\\s+(?:&|ve)\\s+cevap(?:lar)?', 'fragen\\s+(?:und|&)\\s+antworten', 'questions\\s+(?:et|&)\\s+réponses', 'preguntas\\s+y\\s+respuestas', 'domande\\s+e\\s+risposte', 'vragen\\s+en\\s+antwoorden', 'perguntas\\s+e\\s+respostas', 'pytania\\s+i\\s+odpowiedzi', 'değerlendirmeler', 'yorumlar', 'recenzje', 'arvostelut', 'anmeldelser', 'omdömen', 'recenze', 'カスタマーレビュー', 'レビュー', '商品评价', '用户评价', '评价', '리뷰', '상품평', '상품\\s*문의', '商品についての質問',
  ].join('|')})(?:\\s*[(\\[]?\\s*\\d[\\d.,]*\\s*[)\\]]?)?\\s*:?$`,
  'iu',
);

/**
 * The text of the line a block opens with, a title written as a plain block (a marketplace's
 * hashed `<div class="_3UAT2v">Ratings &amp; Reviews</div>`): its first element, a few levels down,
 * holding only text and inline elements, 80 characters at most. Only a whole reviews heading is
 * read from it (a line is no heading otherwise).
 */
function openingLine(el: DomNode, depth = 0): string | undefined {
  for (const c of el.children ?? []) {
    if (c.type === 'text') {
      if ((c.data ?? '').trim()) return undefined;
      continue;
    }
    if (!isElement(c)) continue;
    const kids = (c.children ?? []).filter(isElement);
    // A line of text, not a link (a tab list's "Customer Reviews" tab leads to the reviews).
    if (LINE_BLOCKS.has(c.name ?? '') && kids.every((k) => INLINE_LINE.has(k.name ?? ''))) {
      const text = squash(plainText(c).join(''));
      return text && text.length <= 80 ? text : undefined;
    }
    return depth < 3 && BLOCK_WRAPPERS.has(c.name ?? '') ? openingLine(c, depth + 1) : undefined;
  }
  return undefined;
}
const INLINE_LINE: ReadonlySet<string> = new Set(['span', 'strong', 'b', 'em', 'i', 'small']);
const LINE_BLOCKS: ReadonlySet<string> = new Set(['div', 'span', 'p', 'strong', 'b']);
const BLOCK_WRAPPERS: ReadonlySet<string> = new Set(['div', 'section']);

/**
 * Whether `el` is a product page's reviews or questions section: it opens with such a heading,
 * holds records (reviews, answers) and not the page's title. Shoppers' posts beside the item, as
 * comments are beside a story: not the item's content.
 */
export function opensReviewsSection(el: DomNode): boolean {
  if (el.attribs?.role === 'tabpanel' && reviewsTab(el)) return !holdsElement(el, TITLE);
  const text = sectionHeading(el)?.text ?? openingLine(el);
  return !!text && text.length <= 80 && reviewsHeading(text) && (holdsRecords(el, 5) || (!BARE_REVIEWS.test(text) && namedForReviews(el))) && !holdsElement(el, TITLE);
}

// The bare word: a game's or a book's "Reviews" may be its critics' quotes, told by their run.
const BARE_REVIEWS = /^(?:reviews|ratings)$/i;
// A block named for reviews or shoppers' questions (`yv-reviews-container`, `product-reviews`, `questions-wrapper`).
const REVIEWS_CLASS = /(?:^|[\s_-])(?:reviews?|ratings?|questions?|qna|q-?and-?a)(?:$|[\s_-])/i;

/**
 * Whether `el` or one of its first elements (a wrapper) is named for reviews: a reviews section showing one
 * review has no run of alike records to tell it by.
 */
function namedForReviews(el: DomNode): boolean {
  if (REVIEWS_CLASS.test(classAndId(el))) return true;
  // Or one of its first elements (its heading first, then the block of reviews).
  return (el.children ?? []).filter(isElement).slice(0, 3).some((c) => REVIEWS_CLASS.test(classAndId(c)));
}

const reviewsHeading = (text: string) => REVIEWS_HEADING.test(text) || LOCAL_REVIEWS_HEADING.test(text);

/**
 * Whether a tab panel is labelled by a reviews tab ("Opinie", "Omdömen (23)", "Reviews (76)"):
 * the panel is the store's reviews, however few of them the page carries (a tab's count says how
 * many there are).
 */
function reviewsTab(panel: DomNode): boolean {
  const id = panel.attribs?.['aria-labelledby']?.trim().split(/\s+/)[0];
  if (!id) return false;
  const label = elementById(panel, id);
  const text = label && squash(plainText(label).join(''));
  return !!text && text.length <= 80 && reviewsHeading(text);
}

/** Elements by id, per document (built once, on the first lookup). */
const ids = new WeakMap<DomNode, Map<string, DomNode>>();

function elementById(node: DomNode, id: string): DomNode | undefined {
  const root = documentRoot(node);
  let m = ids.get(root);
  if (!m) {
    const found = new Map<string, DomNode>();
    const walk = (n: DomNode): void => {
      for (const c of n.children ?? []) {
        if (c.type !== 'tag') continue;
        const own = c.attribs?.id;
        if (own && !found.has(own)) found.set(own, c);
        walk(c);
      }
    };
    walk(root);
    m = found;
    ids.set(root, m);
  }
  return m.get(id);
}

// The heading of a store's own section beside an item: its policy ("Shipping & Returns", "30-day
// returns", "Lifetime Guarantee"; not a warranty: a product's own term may be in it), its other
// offers ("More seller options (2)"; not the seller of a marketplace's item, whose listing it is),
// its fulfilment choice ("How do you want your item?"), its help prompt ("Need help choosing
// gear?") and an empty reviews box ("Be the first to review this item").
const STORE_POLICY_HEADING = new RegExp(
  `^(?:${[
    '(?:free\\s+)?(?:shipping|delivery)\\s*(?:&|and|,)?\\s*(?:returns?|exchanges?|polic(?:y|ies))', 'returns?(?:\\s*(?:&|and)\\s*(?:exchanges?|refunds?))?\\s+polic(?:y|ies)', '\\d+[- ]day\\s+returns?', '(?:lifetime|satisfaction)\\s+guarantee',
    '(?:more|other)\\s+(?:seller|buying)\\s+options', 'other\\s+sellers',
    'how\\s+(?:do|would)\\s+you\\s+(?:like|want)\\s+(?:to\\s+(?:get|receive)\\s+)?your\\s+(?:item|order)', 'need\\s+(?:help|advice)', 'be\\s+the\\s+first\\s+to\\s+(?:review|rate)',
  ].join('|')})(?![\\w-])`,
  'i',
);

/**
 * Whether `el` is a store's policy section beside a product: it opens with such a heading, holds
 * no other section's heading (a block of sections that opens with it is more than the policy)
 * and not the page's title.
 */
export function opensStorePolicySection(el: DomNode): boolean {
  const opening = sectionHeading(el);
  if (!opening) return false;
  const text = opening.text.replace(/^\W+/, '');
  return text.length <= 80 && STORE_POLICY_HEADING.test(text) && !holdsElement(el, TITLE) && !holdsPeerHeading(el, opening.h);
}

/** Whether `el` holds a heading other than `h` of its level or above: a block of several sections, not one. */
function holdsPeerHeading(el: DomNode, h: DomNode): boolean {
  const level = Number((h.name ?? 'h6').slice(1));
  const walk = (x: DomNode): boolean => {
    for (const c of x.children ?? []) {
      if (!isElement(c) || c === h) continue;
      const name = c.name ?? '';
      if (HEADING_TAGS.has(name) && Number(name.slice(1)) <= level) return true;
      if (walk(c)) return true;
    }
    return false;
  };
  return walk(el);
}

// The page's title: a block holding it is the item, not a section beside it.
const TITLE = new Set(['h1']);

/**
 * Whether `el` is the body of a related-stories section whose heading stands just before it, in a
 * block of its own (a page builder's heading widget beside its posts widget): `el` follows such a
 * heading and holds two cards or more (not list items) with links to other pages.
 */
function followsRelatedHeading(el: DomNode): boolean {
  const siblings = el.parent?.children ?? [];
  let prev: DomNode | undefined;
  const at = siblingIndex(el);
  // Looked for among the few siblings before it (whitespace, anchors, empty wrappers).
  for (let i = at - 1; i >= Math.max(0, at - 12); i--) {
    const n = siblings[i];
    if (n.type === 'text') {
      if ((n.data ?? '').trim()) return false;
      continue;
    }
    if (!isElement(n)) continue;
    if (SILENT.has(n.name ?? '') && !squash(plainText(n).join(''))) continue;
    prev = n;
    break;
  }
  if (!prev) return false;
  const h = HEADING_TAGS.has(prev.name ?? '') ? prev : openingHeading(prev);
  if (!h || h.name === 'h1') return false;
  const text = squash(plainText(h).join(''));
  if (!isSectionHeading(text) || isCommentsHeading(text)) return false;
  // The block before holds the heading alone.
  if (squash(plainText(prev).join('')) !== text) return false;
  // Cards (a list of links under "See also" is a wiki page's own).
  return hasLinks(el, 2) && holdsRecords(el, 3, false, false);
}
