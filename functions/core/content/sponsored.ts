/**
 * A sponsored card: an advertiser's slot written like the results around it (a job board's
 * "Sponsored" job, a property site's "Annonce sponsorisée" development, a news front's "Contenido
 * patrocinado por …" story, a directory's sponsored business, a store grid's sponsored tile). The
 * page's results are its content; the slots it sold between them are not, on any kind of page.
 *
 * Told by what the card says of itself, read per element on the way down (prepare.ts):
 * - a marker the site writes for its own scripts (`data-sponsored="true"`, `data-ad="true"`,
 *   `data-testid="sponsored-card"`), on a block no bigger than a card;
 * - or a card among alike siblings (three or more of its tag under one parent) that carries a
 *   label, a few levels down, whose whole text says it is paid for ("Sponsored", "Gesponsert",
 *   "Contenido patrocinado por Voltaria"). The label must be the card's own, not a card's inside
 *   a row of cards: no block between the card and its label is itself one of three alike siblings
 *   (a row of three tiles with one sponsored loses that tile, not the row).
 * Either way a card is short (1,500 characters) with two paragraphs at most: a story's body with
 * an ad slot between its paragraphs is not one.
 */
import { documentRoot, leadingText, squash, type DomNode } from './dom.js';

/** A label that says the block is paid for, optionally naming who paid ("… by Acme"). */
const SPONSORED_LABEL = new RegExp(
  `^(?:${[
    'sponsored(?: (?:result|listing|job|ad|post|content|product|item))?', 'promoted(?: (?:listing|job|post))?', 'ad', 'advertisement', 'paid (?:content|partnership|post)',
    'anzeige', 'gesponsert', 'sponsorisée?', 'annonce sponsorisée', 'contenu sponsorisé', 'publicité', 'patrocinad[oa]', 'contenido patrocinado', 'anuncio', 'publicidad', 'promocionad[oa]', 'anúncio', 'publicidade',
    'annons', 'annonse', 'sponsoreret', 'sponsrad', 'mainos', 'hirdetés',
    'sponsorizzat[oa]', 'contenuto sponsorizzato', 'pubblicità', 'conteúdo patrocinado', 'gesponsord', 'advertentie', 'sponsorowane', 'reklama', 'реклама',
    'スポンサー', '広告', 'pr', '광고', '스폰서', '赞助', '广告', '推广',
  ].join('|')})(?:\\s+(?:by|por|par|von|da|door|przez|de)\\s+\\S.{0,60})?$`,
  'iu',
);
/** A card's text is at most this long (read no further): a section of results is bigger. */
const MAX_CARD_CHARS = 1500;
/** A label is found this many levels below the card at most. */
const LABEL_DEPTH = 4;
/** A label's text sits this many levels below the label (its words in a span in a link in a row). */
const LABEL_TEXT_DEPTH = 3;
/** A label's text is a few words. */
const MAX_LABEL_CHARS = 80;
/** Alike siblings that make a card (results come in runs). */
const MIN_ALIKE = 3;
/** Markers a site writes on its paid slots for its own scripts and tests. */
const MARKED = (a: Record<string, string>): boolean =>
  a['data-sponsored'] === 'true' || a['data-ad'] === 'true' || a['data-is-ad'] === 'true' || a['data-is-sponsored'] === 'true' ||
  /(?:^|[-_])sponsored[-_](?:card|item|tile|result|product|listing|job|ad|slot)(?:$|[-_])/i.test(a['data-testid'] ?? '');
/** What is never a card. */
const NEVER: ReadonlySet<string> = new Set(['html', 'body', 'main', 'head', 'script', 'style', 'template']);
/** Blocks whose text is no label (a label is a line). */
const NOT_LABEL: ReadonlySet<string> = new Set(['ul', 'ol', 'table', 'section', 'article', 'img', 'svg', 'a', 'button']);
/** Any word a label may be written with: a short text without one is no label (the first look at a page's text nodes). */
const LABEL_WORD = /sponsor|promo|\bads?\b|\bPR\b|advert|paid|anzeige|gesponsert|publicit|patrocin|anuncio|anúncio|publicidad|pubblicit|reklam|annons|mainos|hirdetés|реклам|スポンサー|広告|광고|스폰서|赞助|广告|推广/iu;

/**
 * A card has a line or a blurb, not paragraphs: a short story's body among its page's blocks, with
 * an ad slot labelled "ADVERTISEMENT" between its paragraphs, is no sponsored card.
 */
const MAX_PARAGRAPHS = 2;
const PARAGRAPH_CHARS = 100;

/** The paragraphs (`<p>` of {@link PARAGRAPH_CHARS} characters or more) in `el`, counted up to the limit. */
function paragraphs(el: DomNode, found = 0): number {
  for (const c of el.children ?? []) {
    if (c.type !== 'tag' || found >= MAX_PARAGRAPHS) continue;
    if (c.name === 'p') {
      if (leadingText(c, PARAGRAPH_CHARS).trim().length >= PARAGRAPH_CHARS) found++;
    } else found = paragraphs(c, found);
  }
  return found;
}

/** Code is never a label ("AD" is a token of Python's itertools table, set in spans). */
const CODE: ReadonlySet<string> = new Set(['code', 'pre', 'kbd', 'samp', 'var']);
/** Element children of each parent, counted by tag (asked of every child). */
const tagCounts = new WeakMap<DomNode, Map<string, number>>();

function alikeSiblings(el: DomNode): number {
  const parent = el.parent;
  if (!parent) return 0;
  let m = tagCounts.get(parent);
  if (!m) {
    m = new Map();
    for (const c of parent.children ?? []) if (c.type === 'tag') m.set(c.name ?? '', (m.get(c.name ?? '') ?? 0) + 1);
    tagCounts.set(parent, m);
  }
  return m.get(el.name ?? '') ?? 0;
}

/** Whether `el` holds a sponsored label of its own (see the module comment), `depth` levels down at most. */
function holdsLabel(el: DomNode, depth: number): boolean {
  for (const c of el.children ?? []) {
    if (c.type !== 'tag' || CODE.has(c.name ?? '')) continue;
    if (!NOT_LABEL.has(c.name ?? '')) {
      const text = squash(leadingText(c, MAX_LABEL_CHARS));
      if (text && text.length <= MAX_LABEL_CHARS && SPONSORED_LABEL.test(text)) return true;
      // Its own words, beside a hidden note of who paid ("Реклама" and a hidden "Рекламодатель: …").
      const own = squash((c.children ?? []).map((k) => (k.type === 'text' ? k.data ?? '' : '')).join(' '));
      if (own && own.length <= MAX_LABEL_CHARS && SPONSORED_LABEL.test(own)) return true;
    }
    // Not through another card of a run (a row of tiles: each tile is judged itself).
    if (depth > 1 && alikeSiblings(c) < MIN_ALIKE && holdsLabel(c, depth - 1)) return true;
  }
  return false;
}

/**
 * The elements a few levels above a text that reads as a sponsored label, per document: found in
 * one walk of its text nodes, so the cards of a page with none are told apart at no cost.
 */
const nearLabels = new WeakMap<DomNode, Set<DomNode>>();

function labelledAncestors(root: DomNode): Set<DomNode> {
  let set = nearLabels.get(root);
  if (set) return set;
  const found = new Set<DomNode>();
  const walk = (n: DomNode): void => {
    for (const c of n.children ?? []) {
      if (c.type === 'text') {
        const data = c.data ?? '';
        if (data.length > 4 * MAX_LABEL_CHARS) continue;
        const t = squash(data);
        if (!t || t.length > MAX_LABEL_CHARS || !LABEL_WORD.test(t)) continue;
        for (let p: DomNode | null | undefined = n, up = 0; p && up <= LABEL_DEPTH + LABEL_TEXT_DEPTH; p = p.parent, up++) found.add(p);
      } else if (c.type === 'tag' && !CODE.has(c.name ?? '')) walk(c);
    }
  };
  walk(root);
  set = found;
  nearLabels.set(root, set);
  return set;
}

/** Whether `el` is a sponsored card (see the module comment). */
export function isSponsoredCard(el: DomNode): boolean {
  const a = el.attribs;
  if (!a || el.type !== 'tag' || NEVER.has(el.name ?? '')) return false;
  const marked = MARKED(a);
  if (!marked && (alikeSiblings(el) < MIN_ALIKE || !labelledAncestors(documentRoot(el)).has(el))) return false;
  if (leadingText(el, MAX_CARD_CHARS).length > MAX_CARD_CHARS || paragraphs(el) >= MAX_PARAGRAPHS) return false;
  return marked || holdsLabel(el, LABEL_DEPTH);
}
