/**
 * Phase 3, select: pick the best-scoring candidate and widen it to what belongs with it.
 *
 * 1. The top candidate by `score × (1 − link density)`.
 * 2. When three or more of the next best candidates (within 75% of the top) share an ancestor
 *    with it, that ancestor is the content (an article split into sections, a docs page); within
 *    50%, when they are apart from the top and the ancestor is mostly text (a page builder's modules).
 * 3. Climb while the parent scores higher (and not far lower); climb past single-child wrappers.
 * 4. Same kind: blocks like the winner elsewhere on the page (a question's answers) join it.
 *    Records: when the path climbs through one of several siblings of the same kind (same tag and
 *    class) that each hold prose, the content is all of them (every post of a forum thread, every
 *    review, every result of a listing), not only the longest one.
 *    A product, recipe or event marked up with schema.org microdata is its whole item container.
 * 5. Siblings of the winner join when they score near it, share its class, or are paragraphs of
 *    prose with few links.
 */
import { classAndId, isElement, type DomNode } from './dom.js';
import { classWeight, finalScore, linkDensity, type Scored } from './score.js';
import { opensRelatedSection } from './related-sections.js';

const TOP_ALTERNATIVES = 5;
const MIN_SHARED_ALTERNATIVES = 3;
/**
 * How far above the winner its record (a post, a card) is looked for: a forum post's text sits
 * deep in its record (XenForo: article > inner > cell > main > content > userContent > body >
 * wrapper). Tune half of the WCXB development pages: 4 levels forum 0.663, 8 levels 0.722;
 * service 0.743, 0.757, 12 levels 0.764; articles 0.932, 0.931.
 */
const RECORD_DEPTH = 12;
/** How far above a candidate a related-stories section is looked for. */
const RELATED_DEPTH = 8;

/** Element children that survived prepare. */
export function keptChildren(el: DomNode, scored: Scored): DomNode[] {
  return (el.children ?? []).filter((c) => isElement(c) && !scored.dropped.has(c) && scored.stats.has(c));
}

const isFrame = (el: DomNode | null | undefined) => !el || el.type === 'root' || el.name === 'body' || el.name === 'html';

/**
 * Same kind of element: same tag and first class (`post bg1` and `post bg2` are both posts;
 * frameworks put the base class first and state or parity classes after it), and a first child
 * of the same tag and first class (two grid cells, one holding the story and one a widget, are
 * not two records).
 */
export function signature(el: DomNode): string {
  const first = el.children?.find(shownFirst);
  return first ? `${shallowSignature(el)}>${shallowSignature(first)}` : shallowSignature(el);
}

/**
 * Whether a child counts as a block's first child for {@link signature}: not an element that is
 * never drawn (`<meta>`, `<script>`, `<template>`…). XenForo writes two `<meta>` at the start of
 * every post of a thread but the first, so the first post looked like no kin of the others and a
 * thread whose first post was its longest came out as that post alone.
 */
function shownFirst(c: DomNode): boolean {
  return isElement(c) && !NEVER_DRAWN.has(c.name ?? '');
}
const NEVER_DRAWN: ReadonlySet<string> = new Set(['meta', 'link', 'script', 'style', 'template', 'noscript']);

/** An element's tag and first class. */
export function shallowSignature(el: DomNode): string {
  const cls = el.attribs?.class?.trim();
  return `${el.name}.${cls ? cls.split(/\s+/, 1)[0] : ''}`;
}

function topCandidate(scored: Scored): DomNode | undefined {
  const ranked: [DomNode, number][] = [];
  for (const el of scored.scores.keys()) ranked.push([el, finalScore(scored, el)]);
  ranked.sort((a, b) => b[1] - a[1]);
  // Not a related-stories section, nor a teaser inside one (related-sections.ts).
  const related = new Map<DomNode, boolean>();
  const inRelated = (el: DomNode): boolean => {
    // A teaser sits a few levels under its section's container (card > body > text): look that far up only.
    let level = 0;
    for (let n: DomNode | null | undefined = el; n && !isFrame(n) && level < RELATED_DEPTH; n = n.parent, level++) {
      let r = related.get(n);
      if (r === undefined) related.set(n, (r = opensRelatedSection(n, scored.commentsAreContent)));
      if (r) return true;
    }
    return false;
  };
  let first = 0;
  while (first < ranked.length && ranked[first][1] > 0 && inRelated(ranked[first][0])) first++;
  if (first >= ranked.length || ranked[first][1] <= 0) return undefined;
  let top = ranked[first][0];
  const topScore = ranked[first][1];
  // 2. Shared ancestor of close alternatives. Or of blocks at half the winner's score that are
  // apart from it, when that ancestor is mostly text: a story a page builder split into modules
  // (a heading and a paragraph each) that a longer single block (an author box) outscores one by
  // one. WCXB development pages, tune half 0.8657 -> 0.8671 (articles 0.946 -> 0.950), check half
  // 0.8616 -> 0.8641 (service 0.788 -> 0.806, product 0.646 -> 0.650); article benchmark unchanged.
  const near = ranked.slice(first + 1, first + TOP_ALTERNATIVES + 1).filter(([el]) => !inRelated(el));
  const alternatives = near.filter(([, s]) => s >= topScore * 0.75).map(([el]) => el);
  const shared = sharedAncestor(top, alternatives);
  if (shared) top = shared;
  else {
    const apart = near.filter(([el, s]) => s >= topScore * 0.5 && !contains(el, top) && !contains(top, el)).map(([el]) => el);
    const wide = sharedAncestor(top, apart);
    if (wide && linkDensity(scored.stats.get(wide)) < 0.25) top = wide;
  }
  // 3. Climb while the parent is better, not while it is much worse.
  let last = finalScore(scored, top);
  const threshold = last / 3;
  for (let p = top.parent; p && !isFrame(p); p = p.parent) {
    if (!scored.scores.has(p)) continue;
    const ps = finalScore(scored, p);
    if (ps < threshold) break;
    if (ps > last) {
      top = p;
      break;
    }
    last = ps;
  }
  return top;
}

/** The lowest ancestor of `top` (below the body) holding at least MIN_SHARED_ALTERNATIVES of `alternatives`. */
function sharedAncestor(top: DomNode, alternatives: DomNode[]): DomNode | undefined {
  if (alternatives.length < MIN_SHARED_ALTERNATIVES) return undefined;
  for (let p = top.parent; p && !isFrame(p); p = p.parent) {
    let containing = 0;
    for (const alt of alternatives) if (contains(p, alt)) containing++;
    if (containing >= MIN_SHARED_ALTERNATIVES) return p;
  }
  return undefined;
}

/** Whether `el` is `ancestor` or inside it. */
export function contains(ancestor: DomNode, el: DomNode): boolean {
  for (let n: DomNode | null | undefined = el; n; n = n.parent) if (n === ancestor) return true;
  return false;
}

/**
 * 4. The container of same-kind prose records the winner is one of, if any (up to RECORD_DEPTH levels up):
 * two or more siblings of its kind hold prose, or one does with a third of its prose. Table rows
 * and cells without a class are layout, not records.
 */
function recordContainer(top: DomNode, scored: Scored): DomNode | undefined {
  let node = top;
  for (let level = 0; level < RECORD_DEPTH && !isFrame(node.parent); level++, node = node.parent!) {
    const parent = node.parent!;
    const sig = signature(node);
    if (/^(?:p|span|a|b|i|em|strong)\./.test(sig) || /^(?:td|tr|tbody)\.(?:>|$)/.test(sig)) continue;
    const kin = keptChildren(parent, scored).filter((c) => c !== node && signature(c) === sig);
    if (!kin.length) continue;
    const own = scored.stats.get(node)!.prose;
    const prose = kin.filter((k) => {
      const s = scored.stats.get(k)!;
      return s.prose > 0 && linkDensity(s) < 0.5;
    });
    const proseText = prose.reduce((n, k) => n + scored.stats.get(k)!.prose, 0);
    if (prose.length >= 2 || (prose.length === 1 && proseText >= own / 3)) return widenByProse(parent, scored);
  }
  return undefined;
}

/**
 * 4a. Blocks of the winner's kind elsewhere on the page (same signature, holding prose): a
 * question and its answers, posts in nested wrappers. The content is their lowest common
 * ancestor, unless that is the whole page or mostly links.
 */
function sameKindContainer(top: DomNode, scored: Scored): DomNode | undefined {
  const sig = signature(top);
  if (!top.attribs?.class || /^(?:p|td|tr|li)\./.test(sig)) return undefined;
  const own = scored.stats.get(top)!.prose;
  const kin: DomNode[] = [];
  let kinProse = 0;
  for (const el of scored.scores.keys()) {
    if (el === top || signature(el) !== sig || contains(top, el) || contains(el, top)) continue;
    const s = scored.stats.get(el)!;
    if (s.prose === 0 || linkDensity(s) >= 0.5) continue;
    kin.push(el);
    kinProse += s.prose;
  }
  if (!(kin.length >= 2 || (kin.length === 1 && kinProse >= own / 3))) return undefined;
  let lca: DomNode | null | undefined = top.parent;
  while (lca && !kin.every((k) => contains(lca!, k))) lca = lca.parent;
  if (!lca || isFrame(lca) || linkDensity(scored.stats.get(lca)) >= 0.35) return undefined;
  return lca;
}

/**
 * Records found: the content may go on beside their container (a question above its answers).
 * Climb while the parent adds a fifth more prose and stays mostly text.
 */
function widenByProse(container: DomNode, scored: Scored): DomNode {
  let best = container;
  for (let level = 0; level < 2 && !isFrame(best.parent); level++) {
    const parent = best.parent!;
    const ps = scored.stats.get(parent)!;
    if (ps.prose < scored.stats.get(best)!.prose * 1.2 || linkDensity(ps) >= 0.3) break;
    best = parent;
  }
  return best;
}

// schema.org types whose microdata container is the whole item (not articles: their container
// holds the headline, byline and share tools, which the scorer already judges).
const ITEM_TYPES = /schema\.org\/(?:Product|IndividualProduct|ProductModel|Vehicle|Recipe|Event|JobPosting|Course|SoftwareApplication|Book|Movie|Hotel|LocalBusiness|Restaurant|Place|RealEstateListing|Offer)\b/i;

/**
 * 4b. A product, recipe, event or job posting marked up with microdata: the item's container is
 * the content (name, price and specs sit beside the description, not inside it).
 */
function itemContainer(top: DomNode, scored: Scored): DomNode | undefined {
  let n: DomNode | null | undefined = top;
  for (let level = 0; level < 6 && n && !isFrame(n); level++, n = n.parent) {
    const a = n.attribs;
    if (a && a.itemscope !== undefined && ITEM_TYPES.test(a.itemtype ?? '')) {
      const s = scored.stats.get(n);
      return s && linkDensity(s) < 0.35 ? n : undefined;
    }
  }
  return undefined;
}

const SENTENCE_END = /[.!?。！？]["'”’»)]?(\s|$)/;

/** The text pieces under `el`, skipping what the scorer dropped. */
export function textOf(el: DomNode, scored: Scored, out: string[] = []): string[] {
  for (const c of el.children ?? []) {
    if (c.type === 'text') out.push(c.data ?? '');
    else if (isElement(c) && !scored.dropped.has(c)) textOf(c, scored, out);
  }
  return out;
}

/** Whether `el` is inside an `<article>` or the page's `articleBody` (the page declares it one story). */
function withinArticle(el: DomNode): boolean {
  for (let n = el.parent; n && !isFrame(n); n = n.parent) if (n.name === 'article' || n.attribs?.itemprop === 'articleBody') return true;
  return false;
}

/** The main-content nodes, in document order (one element, or the winner and its siblings). */
export function selectMain(scored: Scored): DomNode[] {
  let top = topCandidate(scored);
  if (!top) return [scored.root];
  top = sameKindContainer(top, scored) ?? recordContainer(top, scored) ?? itemContainer(top, scored) ?? top;
  while (!isFrame(top.parent) && keptChildren(top.parent!, scored).length === 1) top = top.parent!;
  if (isFrame(top.parent)) return [top];
  // 5. Siblings.
  const topScore = finalScore(scored, top);
  const threshold = Math.max(10, topScore * 0.2);
  const topClass = classAndId(top) && top.attribs?.class;
  const out: DomNode[] = [];
  const inArticle = withinArticle(top);
  let afterTop = false;
  for (const sib of keptChildren(top.parent!, scored)) {
    if (sib === top) {
      out.push(sib);
      afterTop = true;
      continue;
    }
    if (opensRelatedSection(sib, scored.commentsAreContent)) continue;
    const bonus = topClass && sib.attribs?.class === topClass ? topScore * 0.2 : 0;
    if (scored.scores.has(sib) && finalScore(scored, sib) + bonus >= threshold) {
      out.push(sib);
      continue;
    }
    const one = scored.stats.get(sib)?.blocks === 1;
    // A paragraph, or a block of one paragraph of its own text; inside the page's <article>, after
    // the winner, also a wrapper whose one paragraph is nested in it (what a "Load more" button or
    // infinite scroll appended past an empty spacer, in its own <div> or <section>): judged as that paragraph.
    if (sib.name === 'p' || (one && scored.stats.get(sib)!.ownText >= 25) || (one && afterTop && inArticle && classWeight(sib, scored.commentsAreContent) >= 0)) {
      const s = scored.stats.get(sib)!;
      const ld = linkDensity(s);
      if (s.text > 80 && ld < 0.25) out.push(sib);
      else if (s.text > 0 && s.text <= 80 && ld === 0 && SENTENCE_END.test(textOf(sib, scored).join('').trim())) out.push(sib);
    }
  }
  return out;
}
