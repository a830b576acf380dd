/**
 * Markdown structure, counted for fidelity against a reference markdown: headings by level,
 * list items (and the deepest nesting), GFM tables, fenced code blocks.
 *
 * Fidelity of one feature on one page is min(a, b) / max(a, b) (headings compare the multiset of
 * levels, so a page that turns every h2 into h3 scores low), over the pages whose reference has
 * the feature. The references (WCXB's `main_content_markdown`) often flatten a list into lines, a
 * key/value table into text or leave a page's code out of the markdown while its plain text holds
 * it, so a page where only our side has the feature says little about conversion: those pages are
 * counted apart (`extra`), not scored 0.
 *
 * Counting follows CommonMark where it matters: a fence closes only on a fence of the same
 * character at least as long (a ```` block may hold ``` lines), a heading inside a list item or a
 * block quote is a heading, a thematic break (`* * *`, `- - -`) is not a list item.
 */
export interface Structure {
  headings: number[];
  listItems: number;
  listDepth: number;
  tables: number;
  code: number;
}

const FENCE = /^\s*(`{3,}|~{3,})/;
const CONTAINER = /^\s*(?:(?:[-*+]|\d{1,9}[.)])\s+|>\s?)*/;
const HEADING = /^(#{1,6})\s+\S/;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+\S/;
const THEMATIC_BREAK = /^\s*([-*_])(?:\s*\1){2,}\s*$/;
const DELIMITER_ROW = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

export function structureOf(md: string): Structure {
  const s: Structure = { headings: [], listItems: 0, listDepth: 0, tables: 0, code: 0 };
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const mark = FENCE.exec(line)?.[1];
    if (fence) {
      if (mark && mark[0] === fence[0] && mark.length >= fence.length && line.trim() === mark) fence = null;
      continue;
    }
    if (mark) {
      s.code++;
      fence = mark;
      continue;
    }
    const h = HEADING.exec(line.slice(CONTAINER.exec(line)![0].length));
    if (h) s.headings.push(h[1].length);
    const li = LIST_ITEM.exec(line);
    if (li && !THEMATIC_BREAK.test(line)) {
      s.listItems++;
      s.listDepth = Math.max(s.listDepth, 1 + Math.floor(li[1].replace(/\t/g, '    ').length / 2));
    }
    // One delimiter row per table (the row under its header).
    if (line.includes('|') && DELIMITER_ROW.test(line)) s.tables++;
  }
  return s;
}

const ratio = (ref: number, ours: number) => (ref === 0 ? NaN : Math.min(ref, ours) / Math.max(ref, ours));

function levelOverlap(ref: number[], ours: number[]): number {
  if (!ref.length) return NaN;
  const count = (xs: number[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<number, number>());
  const ca = count(ref);
  const cb = count(ours);
  let common = 0;
  for (const [k, v] of ca) common += Math.min(v, cb.get(k) ?? 0);
  return common / Math.max(ref.length, ours.length);
}

export interface Fidelity {
  headings: number;
  lists: number;
  tables: number;
  code: number;
  /** Features only our side has (the reference has none): not scored, counted. */
  extra: { headings: boolean; lists: boolean; tables: boolean; code: boolean };
}

export function fidelity(reference: string, predicted: string): Fidelity {
  const r = structureOf(reference);
  const p = structureOf(predicted);
  return {
    headings: levelOverlap(r.headings, p.headings),
    lists: ratio(r.listItems, p.listItems),
    tables: ratio(r.tables, p.tables),
    code: ratio(r.code, p.code),
    extra: { headings: !r.headings.length && p.headings.length > 0, lists: !r.listItems && p.listItems > 0, tables: !r.tables && p.tables > 0, code: !r.code && p.code > 0 },
  };
}
