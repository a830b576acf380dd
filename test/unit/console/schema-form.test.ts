import { beforeAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { installSelectSemantics } from './select-semantics.js';

// Forms from input schemas (console/lib/schema-form.js) on a server-side DOM: the value a form
// returns is the JSON a run takes; empty fields are left out (the service applies defaults);
// keys the schema does not describe survive a round trip.

interface Form { el: HTMLElement; get(): Record<string, unknown>; set(v: unknown): void }
let schemaForm: (schema: unknown, opts?: { idPrefix?: string }) => Form;
let hasFields: (schema: unknown) => boolean;
let WIDGETS: Array<{ name: string }>;

beforeAll(async () => {
  const { document, window, Node, DocumentFragment } = parseHTML('<!doctype html><html><body></body></html>');
  installSelectSemantics(window);
  Object.assign(globalThis, { document, Node, DocumentFragment, location: new URL('http://127.0.0.1:3000/') });
  const path = '../../../console/lib/schema-form.js';
  ({ schemaForm, hasFields, WIDGETS } = await import(/* @vite-ignore */ path));
});

const CRAWL = {
  type: 'object',
  properties: {
    start_url: { type: 'string', format: 'uri', description: 'Where the crawl starts' },
    max_pages: { type: 'integer', minimum: 1, maximum: 100000, default: 50 },
    include: { type: 'array', items: { type: 'string' }, default: [] },
    engine: { type: 'string', enum: ['auto', 'http', 'browser'], default: 'auto' },
    render: { type: 'boolean', default: false },
    fields: { type: 'object', additionalProperties: { type: 'object', properties: { selector: { type: 'string' }, all: { type: 'boolean' } }, required: ['selector'] } },
    headers: { type: 'object', properties: { accept: { type: 'string' } } },
  },
  required: ['start_url'],
};

describe('forms from input schemas', () => {
  it('builds one labelled control per property: url input, bounded number, select with the default, checkbox, list, map, nested object', () => {
    const f = schemaForm(CRAWL, { idPrefix: 't' });
    const el = f.el;
    const url = el.querySelector('#t-start_url')!;
    expect([url.getAttribute('type'), url.getAttribute('aria-required')]).toEqual(['url', 'true']);
    expect(el.querySelector('label[for="t-start_url"]')!.textContent).toContain('Start URL');
    const num = el.querySelector('#t-max_pages')!;
    expect([num.getAttribute('min'), num.getAttribute('max'), num.getAttribute('placeholder')]).toEqual(['1', '100000', '50']);
    expect(el.querySelector('#t-max_pages-hint')!.textContent).toContain('Default: 50');
    expect(Array.from(el.querySelectorAll('#t-engine option')).map((o) => o.textContent)).toEqual(['Default (auto)', 'auto (default)', 'http', 'browser']);
    expect(el.querySelector('#t-render')!.getAttribute('type')).toBe('checkbox');
    expect(el.querySelector('textarea#t-include')).not.toBeNull();
    expect(el.querySelector('[data-field="fields"] legend')!.textContent).toContain('Fields');
    expect(el.querySelector('[data-field="headers"] #t-headers-accept')).not.toBeNull();
  });

  // (Selects are left to the browser test: this DOM has no settable select value.)
  it('round-trips a value; empty fields are left out; unknown keys are kept', () => {
    const f = schemaForm(CRAWL, { idPrefix: 'r' });
    expect(f.get()).toEqual({});
    const value = { start_url: 'https://example.com/', max_pages: 7, include: ['/blog/**', '/docs/**'], render: true, fields: { title: { selector: 'h1' }, links: { selector: 'a', all: true } }, headers: { accept: 'text/html' }, extra: { kept: 1 } };
    f.set(value);
    expect(f.get()).toEqual(value);
    f.set({ start_url: 'https://example.com/' });
    expect(f.get()).toEqual({ start_url: 'https://example.com/' });
  });

  it('has an extension point for new field types and knows when a schema has no fields', () => {
    expect(WIDGETS.map((w) => w.name)).toContain('json');
    expect(hasFields({ type: 'object', additionalProperties: true })).toBe(false);
    expect(hasFields(CRAWL)).toBe(true);
  });
});
