import type { CheerioAPI } from 'cheerio';
import type { AnyNode, Element, ParentNode } from 'domhandler';
import { leadingText, type DomNode } from './dom.js';

/**
 * React's streamed server rendering (Suspense over a stream) sends a boundary's fallback
 * ("Loading…") where the content belongs and the content itself later, in a hidden holder at the
 * end of the document (`<div hidden id="S:…">`), with an inline script that moves it into place:
 * `$RC("B:x","S:y")` replaces the boundary that starts at `<template id="B:x">` (its fallback, up to
 * the boundary's `<!--/$-->`) with the holder's children; `$RS("S:x","P:y")` puts a segment's
 * children where `<template id="P:y">` stands. A browser runs those scripts before anyone reads the
 * page; a document read over http has not. This does what they do, in their order, so the page
 * reads as people see it: its content in place, not hidden at the end (and dropped as hidden), and
 * no fallback. A page saved without its scripts (they came from a file) is completed by React's
 * naming: `S:x` into `P:x`, else into `B:x`. Returns how many holders were moved; a page without
 * such holders costs one selection.
 */
export function completeStreamedContent($: CheerioAPI): number {
  // shapePage completes the document before typed data, and the parse it then runs would
  // select every holder again: a document is completed once.
  const root = $.root().get(0);
  if (!root || completed.has(root)) return 0;
  completed.add(root);
  const holders = ($('div[hidden][id^="S:"]').toArray() as Element[]).slice(0, MAX_HOLDERS);
  if (!holders.length) return 0;
  const byId = new Map<string, Element>();
  for (const h of holders) byId.set(h.attribs.id!, h);
  for (const t of $('template[id^="B:"],template[id^="P:"]').toArray() as Element[]) byId.set(t.attribs.id!, t);
  const steps = instructions($);
  let moved = 0;
  if (steps.length) {
    for (const s of steps) if (apply(byId, s)) moved++;
    return moved;
  }
  // No instruction left in the document: by React's naming, until nothing more moves (a segment
  // may hold the placeholder of another).
  for (let pass = 0, more = true; more && pass < holders.length; pass++) {
    more = false;
    for (const h of holders) {
      const id = h.attribs.id!.slice(2);
      if (!h.parent) continue;
      const step: Step = byId.has(`P:${id}`) ? { kind: 'segment', holder: `S:${id}`, target: `P:${id}` } : { kind: 'boundary', holder: `S:${id}`, target: `B:${id}` };
      if (apply(byId, step)) {
        moved++;
        more = true;
      }
    }
  }
  return moved;
}

/** Documents already completed (see completeStreamedContent). */
const completed = new WeakSet<object>();

/**
 * Holders moved at most (the development pages have up to 59). Each move searches its parent's
 * children: a page of tens of thousands of sibling holders would cost seconds of a shared thread.
 */
export const MAX_HOLDERS = 500;

interface Step {
  kind: 'boundary' | 'segment';
  /** The hidden holder's id (`S:…`). */
  holder: string;
  /** The boundary's template (`B:…`) or the segment's placeholder (`P:…`). */
  target: string;
}

// `$RC("B:0","S:0")` and `$RR("B:0","S:0",[…])` complete a boundary; `$RS("S:1","P:1")` a segment.
const CALL = /\$R([CRS])\(\s*"([BPS]:[^"]{1,40})"\s*,\s*"([BPS]:[^"]{1,40})"/g;

/** The completion instructions of the page's inline scripts, in document order. */
function instructions($: CheerioAPI): Step[] {
  const out: Step[] = [];
  for (const s of $('script:not([src])').toArray()) {
    const text = $(s).text();
    if (!text.includes('$R')) continue;
    for (const m of text.matchAll(CALL)) {
      if (m[1] === 'S') out.push({ kind: 'segment', holder: m[2]!, target: m[3]! });
      else out.push({ kind: 'boundary', holder: m[3]!, target: m[2]! });
      if (out.length >= MAX_HOLDERS) return out;
    }
  }
  return out;
}

/** Whether a boundary's template stands right after its start marker (`<!--$?-->`, `<!--$!-->`, `<!--$-->`). */
function opensBoundary(template: AnyNode): boolean {
  let n = template.prev;
  while (blank(n)) n = n!.prev;
  const data = commentData(n);
  return data === '$?' || data === '$!' || data === '$';
}

/** Whether `n` is a text node of white space only. */
const blank = (n: AnyNode | null): boolean => !!n && n.type === 'text' && !(n as { data: string }).data.trim();

/** "Loading…", "Loading paragraph...": a short element that says it waits. */
function isLoadingPlaceholder(n: AnyNode): boolean {
  if (n.type !== 'tag') return false;
  const text = leadingText(n as DomNode, 80).trim();
  return text.length < 80 && LOADING.test(text);
}

const LOADING = /^(?:loading\b.*|.{0,40}(?:\.\.\.|…))$/i;

const commentData = (n: AnyNode | null): string | undefined => (n && n.type === 'comment' ? (n as { data: string }).data : undefined);

function apply(byId: Map<string, Element>, step: Step): boolean {
  const holder = byId.get(step.holder);
  const target = byId.get(step.target);
  if (!holder?.parent || !target?.parent || holder === target || contains(holder, target)) return false;
  const content = [...holder.children];
  const parent = target.parent;
  if (step.kind === 'segment') {
    for (const n of content) insertBefore(parent, n, target);
    detach(target);
  } else {
    // The fallback: the template and its siblings up to the boundary's end (nested boundaries
    // counted), then the content before that end.
    let node: AnyNode | null = target;
    let depth = 0;
    const fallback: AnyNode[] = [];
    if (!opensBoundary(target)) {
      // A page saved without its comments has no boundary markers to find the fallback's end by:
      // walking to the parent's end would take the next boundaries' templates (and whatever
      // stands between) with it. The fallback is then the template and, when it says it is
      // loading, the element after it.
      fallback.push(target);
      node = target.next;
      while (blank(node)) node = node!.next;
      if (node && isLoadingPlaceholder(node)) {
        fallback.push(node);
        node = node.next;
      }
    } else {
      while (node) {
        const data = commentData(node);
        if (data === '/$') {
          if (depth === 0) break;
          depth--;
        } else if (data === '$' || data === '$?' || data === '$!') depth++;
        fallback.push(node);
        node = node.next;
      }
    }
    for (const n of fallback) detach(n);
    for (const n of content) insertBefore(parent, n, node);
  }
  detach(holder);
  byId.delete(step.holder);
  byId.delete(step.target);
  return true;
}

/** Take `n` out of its parent's children (the tree's sibling links kept right). */
function detach(n: AnyNode): void {
  const p = n.parent;
  if (p) {
    const i = p.children.indexOf(n as never);
    if (i >= 0) p.children.splice(i, 1);
  }
  if (n.prev) n.prev.next = n.next;
  if (n.next) n.next.prev = n.prev;
  n.parent = n.prev = n.next = null;
}

/** Put `n` into `parent` before `ref` (at the end when `ref` is null). */
function insertBefore(parent: ParentNode, n: AnyNode, ref: AnyNode | null): void {
  detach(n);
  const kids = parent.children;
  const i = ref ? kids.indexOf(ref as never) : -1;
  const at = i >= 0 ? i : kids.length;
  const prev = at > 0 ? kids[at - 1]! : null;
  const next = i >= 0 ? ref : null;
  kids.splice(at, 0, n as never);
  n.parent = parent;
  n.prev = prev;
  n.next = next;
  if (prev) prev.next = n;
  if (next) next.prev = n;
}

function contains(outer: AnyNode, inner: AnyNode): boolean {
  for (let n: AnyNode | null = inner; n; n = n.parent) if (n === outer) return true;
  return false;
}
