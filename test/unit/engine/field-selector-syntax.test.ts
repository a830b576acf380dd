import { describe, expect, it } from 'vitest';
import { fieldsSchema } from '../../../functions/core/engine/field-spec.js';
import { cssSelector } from '../../../functions/core/scrapers/input-fields.js';

// Issue 41 item 4: `h3[[bad` in a field was accepted and read as "found nothing". Every field
// selector (scrape extract, css-extract fields, runbook extract steps share this schema) is parsed
// by the selector engine at validation: an issue naming the field and saying why.
describe('field selectors are valid CSS or a 400 naming the field', () => {
  it('an unparsable field selector is an issue at fields.<name>.selector with the parser\'s reason', () => {
    const r = fieldsSchema.safeParse({ title: { selector: 'h3[[bad' }, price: { selector: '.price' } });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))).toEqual([
      { path: 'title.selector', message: "is not a valid CSS selector: Attribute selector didn't terminate" },
    ]);
  });

  it('valid selectors pass; other selector inputs give the same reason', () => {
    expect(fieldsSchema.safeParse({ title: { selector: 'h3.title' }, link: { selector: 'a[href]', attr: 'href', all: true } }).success).toBe(true);
    expect(cssSelector.safeParse('div >> p').error!.issues[0]!.message).toBe('is not a valid CSS selector: Did not expect successive traversals.');
  });
});
