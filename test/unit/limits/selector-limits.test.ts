import { describe, expect, it } from 'vitest';
import { selectorComplexityProblem, selectorTooComplex } from '../../../functions/core/limits/selector-limits.js';
import { cssSelector } from '../../../functions/core/scrapers/input-fields.js';
import { fieldsSchema } from '../../../functions/core/engine/field-spec.js';

// Static selector limits (issue 27): refused at input validation, before any page is matched.

describe('selector limits', () => {
  it('refuses :has() inside :has(), however it is spelled or wrapped', () => {
    for (const sel of ['*:has(*:has(b))', 'div:HAS(p :has(b))', '*:has(:not(:has(b)))', 'a:has(b), c:has(d:has(e))'])
      expect(selectorComplexityProblem(sel), sel).toMatch(/:has\(\) inside :has\(\)/);
  });

  it('bounds the number of :has(), pseudo-class nesting and combinators', () => {
    expect(selectorComplexityProblem('a:has(b) c:has(d) e:has(f)')).toMatch(/more than 2 :has/);
    expect(selectorComplexityProblem(':not(:is(:where(:not(a))))')).toMatch(/nests pseudo-classes/);
    expect(selectorComplexityProblem(Array.from({ length: 20 }, () => 'div').join(' '))).toMatch(/combinators/);
  });

  it('accepts ordinary selectors, strings and escapes included', () => {
    for (const sel of ['article h1', 'ul > li + li ~ li', 'a[href*=":has("]', 'p:has(+ p)', '.a\\:has\\(b', 'main :not(.ad) a[title="x > y"]', 'li:nth-child(2n+1)'])
      expect(selectorComplexityProblem(sel), sel).toBeNull();
  });

  it('a refused selector is 422 selector_too_complex naming where it was, in every schema that takes selectors', () => {
    const r = cssSelector.safeParse('*:has(*:has(b))');
    expect(r.success).toBe(false);
    const e = selectorTooComplex(r.error!.issues, 'body.wait_for');
    expect(e).toMatchObject({ status: 422, code: 'selector_too_complex' });
    const f = fieldsSchema.safeParse({ x: { selector: '*:has(*:has(b))' } });
    expect(selectorTooComplex(f.error!.issues, 'body.extract.fields')!.message).toContain('body.extract.fields.x.selector');
    // Other failures stay a 400 (null here).
    expect(selectorTooComplex(cssSelector.safeParse('a[').error!.issues, 'x')).toBeNull();
  });
});
