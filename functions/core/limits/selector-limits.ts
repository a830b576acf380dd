import { AppError } from '../errors.js';

/**
 * Static limits on a tenant's CSS selectors, checked at input validation (issue 27): cheap, and
 * they refuse what no page-sized budget could run. `*:has(*:has(*:has(b)))` searches each
 * element's subtree for each element of each subtree (8.4 s on a 1.7 KB page of 150 nested divs);
 * a long chain of descendant combinators backtracks through every ancestor for each part. What is
 * left (one `:has()` on a hostile page) runs under the selector budget (engine/shape-page.ts).
 * A refused selector is 422 `selector_too_complex`, naming the limit.
 */
export const SELECTOR_LIMITS = {
  /** `:has()` in one selector (a list counts as one); never one inside another. */
  maxHas: 2,
  /** Functional pseudo-classes (`:not()`, `:is()`, `:where()`, `:has()`…) inside one another. */
  maxPseudoNesting: 3,
  /** Combinators (descendant, `>`, `+`, `~`) in one selector. */
  maxCombinators: 16,
} as const;

/** The zod issue `params.code` that makes a refused selector a 422 `selector_too_complex` (not a 400). */
export const SELECTOR_TOO_COMPLEX = 'selector_too_complex';

/** What is too much about `sel`, or null. One pass over its characters; strings and escapes are skipped. */
export function selectorComplexityProblem(sel: string): string | null {
  const L = SELECTOR_LIMITS;
  const stack: string[] = [];
  let has = 0;
  let combinators = 0;
  let pendingSpace = false;
  let prevSignificant = '';
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i]!;
    if (c === '\\') {
      i++;
      prevSignificant = 'x';
      continue;
    }
    if (c === '"' || c === "'") {
      const end = sel.indexOf(c, i + 1);
      i = end === -1 ? sel.length : end;
      prevSignificant = 'x';
      continue;
    }
    if (/\s/.test(c)) {
      pendingSpace = true;
      continue;
    }
    if (c === '>' || c === '+' || c === '~') {
      combinators++;
      pendingSpace = false;
      prevSignificant = c;
      continue;
    }
    // A run of whitespace between two compound selectors is a descendant combinator.
    if (pendingSpace && prevSignificant && !'>+~,('.includes(prevSignificant) && c !== ',' && c !== ')') combinators++;
    pendingSpace = false;
    if (c === ':') {
      const m = /^::?([a-zA-Z-]+)\(/.exec(sel.slice(i, i + 40));
      if (m) {
        const name = m[1]!.toLowerCase();
        if (name === 'has' || name.endsWith('-has')) {
          if (stack.includes('has')) return 'it nests :has() inside :has()';
          if (++has > L.maxHas) return `it has more than ${L.maxHas} :has() (limit ${L.maxHas})`;
        }
        stack.push(name === 'has' || name.endsWith('-has') ? 'has' : name);
        if (stack.length > L.maxPseudoNesting) return `it nests pseudo-classes more than ${L.maxPseudoNesting} deep (limit ${L.maxPseudoNesting})`;
        i += m[0].length - 1;
        prevSignificant = '(';
        continue;
      }
    }
    if (c === '(') stack.push('(');
    else if (c === ')') stack.pop();
    if (combinators > L.maxCombinators) return `it has more than ${L.maxCombinators} combinators (limit ${L.maxCombinators})`;
    prevSignificant = c;
  }
  if (combinators > L.maxCombinators) return `it has more than ${L.maxCombinators} combinators (limit ${L.maxCombinators})`;
  return null;
}

/** A zod refinement: a selector past the limits is an issue whose `params.code` is `selector_too_complex`. */
export function refineSelectorComplexity(sel: string, ctx: { addIssue(issue: { code: 'custom'; message: string; params?: Record<string, unknown> }): void }): void {
  const problem = selectorComplexityProblem(sel);
  if (problem) ctx.addIssue({ code: 'custom', message: `${JSON.stringify(sel.slice(0, 80))} is too complex: ${problem}`, params: { code: SELECTOR_TOO_COMPLEX } });
}

/**
 * The 422 `selector_too_complex` for a failed validation that refused a selector as too complex
 * (the first such issue names it), or null: other failures stay the caller's 400.
 */
export function selectorTooComplex(issues: ReadonlyArray<{ path: PropertyKey[]; message: string; code?: string; params?: unknown }>, where: string): AppError | null {
  const hit = issues.find((i) => (i.params as { code?: string } | undefined)?.code === SELECTOR_TOO_COMPLEX);
  if (!hit) return null;
  const path = [where, ...hit.path.map(String)].join('.');
  return new AppError(422, SELECTOR_TOO_COMPLEX, `The CSS selector at ${path} is too complex to run: ${hit.message}`, [{ path, message: hit.message }]);
}
