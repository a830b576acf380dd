import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareVersions } from '../../../functions/core/changes/compare-versions.js';
import { compileFilters } from '../../../functions/core/changes/change-options.js';

// The comparison on saved revisions of one product page (test/fixtures/change-revisions): v2 only
// changes what changes on every load, v3 makes three real edits.
const rev = (name: string) => ({ markdown: readFileSync(new URL(`../../fixtures/change-revisions/${name}`, import.meta.url), 'utf8'), structured: null });
const labels = { previous: 'a', current: 'b' };

describe('compareVersions on saved revisions', () => {
  it('finds no change in a noise-only revision (times, whitespace, tracking params, cache busters)', () => {
    expect(compareVersions(rev('product-v1.md'), rev('product-v2-noise.md'), labels)).toEqual({ changed: false, diff: null, added_lines: 0, removed_lines: 0, fields: null });
  });

  it('finds one sentence, one price and one table cell edited, and only those', () => {
    const c = compareVersions(rev('product-v2-noise.md'), rev('product-v3-edit.md'), labels);
    expect(c.changed).toBe(true);
    expect([c.added_lines, c.removed_lines]).toEqual([3, 3]);
    const changed = c.diff!.split('\n').filter((l) => /^[-+][^-+]/.test(l));
    expect(changed).toEqual([
      '-Its arm turns through 270 degrees and locks in place.',
      '-Price: **$49.99**',
      '+Its arm turns through 300 degrees and locks in place.',
      '+Price: **$44.99**',
      '-| Large | 52 cm | 1.9 kg |',
      '+| Large | 52 cm | 2.1 kg |',
    ]);
  });

  it('finds a one-digit edit of a price and a date in body text (digits are never normalised away)', () => {
    const a = { markdown: 'Price: $12.99\n\nThe event is on 12 March 2027.', structured: null };
    expect(compareVersions(a, { markdown: 'Price: $12.98\n\nThe event is on 12 March 2027.', structured: null }, labels).changed).toBe(true);
    expect(compareVersions(a, { markdown: 'Price: $12.99\n\nThe event is on 13 March 2027.', structured: null }, labels).changed).toBe(true);
  });

  it('removes the matches of ignore_patterns before comparing', () => {
    const filters = compileFilters({ ignore_patterns: ['Visitors today: \\d+', 'ref-[A-Z0-9]+'] });
    const a = { markdown: 'Visitors today: 120\n\nOrder ref-AB12 is ready.', structured: null };
    const b = { markdown: 'Visitors today: 987\n\nOrder ref-ZZ99 is ready.', structured: null };
    expect(compareVersions(a, b, labels, filters).changed).toBe(false);
    expect(compareVersions(a, b, labels).changed).toBe(true);
  });

  it('diffs structured data by JSON pointer next to the markdown', () => {
    const a = { markdown: 'Same text.', structured: { extracted: { price: '$10', tags: ['a', 'b'] } } };
    const b = { markdown: 'Same text.', structured: { extracted: { price: '$11', tags: ['a'], stock: 'in' } } };
    const c = compareVersions(a, b, labels);
    expect(c).toMatchObject({ changed: true, diff: null });
    expect(c.fields).toEqual({ '/extracted/price': { previous: '$10', current: '$11' }, '/extracted/tags/1': { previous: 'b', current: null }, '/extracted/stock': { previous: null, current: 'in' } });
  });
});
