import { describe, expect, it } from 'vitest';
import { checkRunbookInput, runbookInputSchema } from '../../../functions/core/scrapers/runbook-input-contract.js';
import { emptyFieldWarnings } from '../../../functions/core/scrapers/runbook-warnings.js';
import { runbookStepsSchema } from '../../../functions/core/scrapers/runbook-schema.js';

// The input contract's edge cases (the e2e suite proves the API path): which inputs are URLs,
// what the author may add or close, and what a run's input is checked for.
const steps = runbookStepsSchema.parse([
  { action: 'goto', url: { input: 'start' } },
  { action: 'fill', selector: '#q', value: { input: 'q' } },
  { action: 'fill', selector: '#pw', value: { secret: 'pw' } },
  { action: 'goto', url: { input: 'next' } },
]);

describe('runbookInputSchema', () => {
  it('makes the first goto\'s input an absolute URL, a later goto\'s a URL or path, a fill\'s text; secrets are no input', () => {
    const s = runbookInputSchema(steps);
    expect(s.required).toEqual(['start', 'q', 'next']);
    expect(s.properties).toEqual({
      start: { type: 'string', format: 'uri', description: 'The URL the runbook opens (absolute http or https)' },
      q: { type: 'string', description: 'Typed into #q' },
      next: { type: 'string', description: 'A URL or path the runbook opens' },
    });
    expect(s.additionalProperties).toBe(true);
  });

  it('keeps the author\'s words but not a type that would break the goto', () => {
    const s = runbookInputSchema(steps, { properties: { start: { type: 'integer', description: 'Shop page' }, q: { type: 'string', enum: ['a', 'b'] }, extra: { type: 'boolean' } }, required: ['extra', 'ghost'], additionalProperties: false });
    expect(s.properties).toMatchObject({ start: { type: 'string', format: 'uri', description: 'Shop page' }, q: { enum: ['a', 'b'] }, extra: { type: 'boolean' } });
    expect(s.required).toEqual(['start', 'q', 'next', 'extra']);
    expect(s.additionalProperties).toBe(false);
    expect(checkRunbookInput(s, { start: 'https://shop.test/', q: 'c', next: '/2', extra: true, other: 1 })).toEqual([
      { name: 'q', message: 'input q must be one of "a", "b"' },
      { name: 'other', message: 'this runbook takes no input named other' },
    ]);
  });

  it('counts an empty string as missing, and a later goto may take a path', () => {
    const s = runbookInputSchema(steps);
    expect(checkRunbookInput(s, { start: 'https://shop.test/', q: '', next: '/page/2' })).toEqual([{ name: 'q', message: 'input q is required by this runbook (Typed into #q)' }]);
    expect(checkRunbookInput(s, { start: 'ftp://x/', q: 'a', next: '/page/2' })).toEqual([{ name: 'start', message: 'input start must be an absolute http(s) URL' }]);
  });
});

describe('emptyFieldWarnings', () => {
  const step = { action: 'extract' as const, item_selector: 'li', fields: { name: { selector: '.n' }, tags: { selector: '.t', all: true } } };
  it('warns about a field empty in every item, not one found in some', () => {
    expect(emptyFieldWarnings(step, [{ name: 'a', tags: [] }, { name: null, tags: [] }])).toEqual(['field tags: .t found nothing in any of the 2 items; its column is empty']);
  });
  it('warns once when the item selector matched nothing', () => {
    expect(emptyFieldWarnings(step, [])).toEqual(['item_selector li matched nothing: no items']);
  });
});
