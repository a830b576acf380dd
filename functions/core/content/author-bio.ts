/**
 * An author's bio closing a story: a headshot or a label ("About the author", "By Sam O'Brien")
 * and then a paragraph that opens with a name and says who they are ("Rebecca Norris is a
 * full-time freelance writer…"), the last thing the selection holds. It is the page's furniture
 * (it closes every story of that writer), not the story. Told by its place and its shape, not by
 * class names (pages whose bio box is named `author-bio` lose it to the class rules already).
 */
import { BLOCK_TAGS, leadingText, type DomNode } from './dom.js';
import { keptChildren } from './select.js';
import type { Scored } from './score.js';

/** A name (one to four capitalised words, a nickname in brackets) and "is a", "was an", "is the". */
const BIO_START = /^(?:\p{Lu}[\p{L}'’.-]*(?:\s+\([^)]*\))?\s+){1,4}(?:is|was)\s+(?:a|an|the)\s/u;
/** A label before a bio: "About the author", "Written by X", "By X" (short, on its own line). */
const BIO_LABEL = /^(?:about the (?:author|writer)|about the authors|author bio|written by\b|by\s+\p{Lu})/iu;
const IMAGE_TAGS = new Set(['img', 'picture', 'svg', 'figure']);

/** Bios say who someone is in a paragraph: not a sentence, not a page. */
const MIN_BIO = 80;
const MAX_BIO = 1_500;
/** Text after the bio that may still close the selection (a social link, a "more posts" link). */
const MAX_AFTER = 200;
const MAX_LABEL = 80;

/**
 * The last `limit` blocks of `nodes` that hold text or a picture and no block inside, in document
 * order. Walked from the end, so only the close of the selection is read.
 */
function lastLeaves(nodes: DomNode[], scored: Scored, removed: ReadonlySet<DomNode>, limit: number): DomNode[] {
  const out: DomNode[] = [];
  const walk = (el: DomNode): boolean => {
    if (removed.has(el)) return false;
    const kids = keptChildren(el, scored);
    const leaf = el.name === 'p' || IMAGE_TAGS.has(el.name ?? '') || !kids.some((c) => !removed.has(c) && (BLOCK_TAGS.has(c.name ?? '') || IMAGE_TAGS.has(c.name ?? '')));
    if (leaf) {
      // Rules and empty blocks are no part of the reading.
      const st = scored.stats.get(el);
      if (st && (st.text > 0 || st.images > 0 || IMAGE_TAGS.has(el.name ?? ''))) out.unshift(el);
      return out.length >= limit;
    }
    for (let i = kids.length - 1; i >= 0; i--) if (walk(kids[i]!)) return true;
    return false;
  };
  for (let i = nodes.length - 1; i >= 0; i--) if (walk(nodes[i]!)) break;
  return out;
}

const imageOnly = (el: DomNode, scored: Scored) => {
  const s = scored.stats.get(el);
  return !!s && s.text === 0 && (s.images > 0 || IMAGE_TAGS.has(el.name ?? ''));
};

/** Marks a closing author bio and its headshot or label in `removed`. */
export function dropClosingBio(nodes: DomNode[], scored: Scored, removed: Set<DomNode>): void {
  const leaves = lastLeaves(nodes, scored, removed, 4);
  let after = 0;
  for (let i = leaves.length - 1; i >= 1; i--) {
    const el = leaves[i]!;
    const s = scored.stats.get(el);
    const len = s?.text ?? 0;
    if (len >= MIN_BIO && len <= MAX_BIO && BIO_START.test(leadingText(el, 120).trimStart())) {
      const before = leaves[i - 1]!;
      const label = (scored.stats.get(before)?.text ?? 0) <= MAX_LABEL && BIO_LABEL.test(leadingText(before, MAX_LABEL).trim());
      if (!label && !imageOnly(before, scored)) return;
      removed.add(el);
      removed.add(before);
      // A headshot before the label ("[photo] By Sam O'Brien / Sam is…").
      const first = leaves[i - 2];
      if (label && first && imageOnly(first, scored)) removed.add(first);
      return;
    }
    after += len;
    if (after > MAX_AFTER) return;
  }
}
