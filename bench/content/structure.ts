/**
 * Markdown structure, counted for fidelity against a reference markdown: headings by level,
 * list items (and the deepest nesting), GFM tables, fenced code blocks. Fidelity of one feature
 * on one page is min(a, b) / max(a, b) over pages where either side has it (headings compare the
 * multiset of levels, so a page that turns every h2 into h3 scores low).
 */
export interface Structure {
  headings: number[];
  listItems: number;
  listDepth: number;
  tables: number;
  code: number;
}

export function structureOf(md: string): Structure {
  const s: Structure = { headings: [], listItems: 0, listDepth: 0, tables: 0, code: 0 };
  let fence = false;
  for (const line of md.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) {
      if (!fence) s.code++;
      fence = !fence;
      continue;
    }
    if (fence) continue;
    const h = /^(#{1,6})\s+\S/.exec(line);
    if (h) s.headings.push(h[1].length);
    const li = /^(\s*)(?:[-*+]|\d+[.)])\s+\S/.exec(line);
    if (li) {
      s.listItems++;
      s.listDepth = Math.max(s.listDepth, 1 + Math.floor(li[1].replace(/\t/g, '    ').length / 2));
    }
    const sep = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/.test(line) && line.includes('-') && line.includes('|');
    // One delimiter row per table (the row under its header).
    if (sep) s.tables++;
  }
  return s;
}

const ratio = (a: number, b: number) => (a === 0 && b === 0 ? NaN : Math.min(a, b) / Math.max(a, b));

function levelOverlap(a: number[], b: number[]): number {
  if (!a.length && !b.length) return NaN;
  const count = (xs: number[]) => xs.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<number, number>());
  const ca = count(a);
  const cb = count(b);
  let common = 0;
  for (const [k, v] of ca) common += Math.min(v, cb.get(k) ?? 0);
  return common / Math.max(a.length, b.length);
}

export interface Fidelity {
  headings: number;
  lists: number;
  tables: number;
  code: number;
}

export function fidelity(reference: string, predicted: string): Fidelity {
  const r = structureOf(reference);
  const p = structureOf(predicted);
  return { headings: levelOverlap(r.headings, p.headings), lists: ratio(r.listItems, p.listItems), tables: ratio(r.tables, p.tables), code: ratio(r.code, p.code) };
}
