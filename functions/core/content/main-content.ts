/**
 * Main content of an HTML page, on the tree the pipeline already parsed (no second parse, no
 * copy of the document, the tree is not changed): the phases in order are prepare (prepare.ts,
 * applied during the score walk), score (score.ts), select (select.ts) and clean (clean.ts), then
 * the selection is written back to HTML for the markdown converter (serialize.ts).
 *
 * Quality check, as trafilatura does with its fallbacks: when the strict pass (class/id rules on)
 * finds less than 500 characters while the page has clearly more, a lenient pass without the
 * class/id rules runs too (a page whose content is classed `comments`, say) and the longer result
 * wins; when both find nothing scoreable, the page's body without its chrome is the content.
 */
import { isElement, type DomNode } from './dom.js';
import { scoreTree, type Scored } from './score.js';
import { selectMain } from './select.js';
import { cleanSelection } from './clean.js';
import { serializeContent, type Serialized, type Skip } from './serialize.js';

export type { DomNode } from './dom.js';

export interface ContentOptions {
  /** Base URL links and images are resolved against. */
  base: string;
  /** Elements the caller removed (`exclude_tags`): left out of every result. */
  excluded?: ReadonlySet<DomNode>;
}

export interface MainContent extends Serialized {
  /** Which pass produced it (for the bench and tests). */
  pass: 'strict' | 'lenient' | 'body';
}

/** Below this many characters, a strict result is checked against the lenient pass. */
const MIN_CONTENT_CHARS = 500;

function run(body: DomNode, opts: ContentOptions, classRules: boolean): { out: Serialized; scored: Scored; found: boolean } {
  const scored = scoreTree(body, { classRules, excluded: opts.excluded });
  const nodes = selectMain(scored);
  const removed = cleanSelection(nodes, scored);
  const skip: Skip = (n) => scored.dropped.has(n) || removed.has(n);
  const found = !(nodes.length === 1 && nodes[0] === body);
  // The body itself is written as its children (no <body> tag in the content).
  return { out: serializeContent(found ? nodes : (body.children ?? []), skip, opts.base), scored, found };
}

/** The main content of the page whose `<body>` (or document root) is `body`, as HTML. */
export function extractMainContent(body: DomNode, opts: ContentOptions): MainContent {
  const strict = run(body, opts, true);
  if (strict.out.textLength >= MIN_CONTENT_CHARS) return { ...strict.out, pass: 'strict' };
  const pageText = strict.scored.stats.get(body)?.text ?? 0;
  let best: MainContent = { ...strict.out, pass: strict.found ? 'strict' : 'body' };
  const lenient = run(body, opts, false);
  if (lenient.out.textLength > best.textLength && (lenient.found || !strict.found)) best = { ...lenient.out, pass: lenient.found ? 'lenient' : 'body' };
  if (best.textLength === 0 && pageText > 0) best = { ...wholeContent(body.children ?? [], opts), pass: 'body' };
  return best;
}

// What is never content even when the whole page is asked for.
const NEVER = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'head', 'link', 'meta', 'base', 'title', 'button', 'input', 'select', 'textarea', 'option', 'dialog']);

/** `nodes` whole (only_main_content false, or include_tags), without scripts, styles, embeds and form controls. */
export function wholeContent(nodes: DomNode[], opts: ContentOptions): Serialized {
  const hidden = (n: DomNode) => n.attribs?.hidden !== undefined || /(?:^|;)\s*display\s*:\s*none/i.test(n.attribs?.style ?? '');
  const skip: Skip = (n) => isElement(n) && (NEVER.has(n.name ?? '') || hidden(n) || (opts.excluded?.has(n) ?? false));
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

