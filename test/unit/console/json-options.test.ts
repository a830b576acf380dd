import { beforeAll, describe, expect, it } from 'vitest';
import { parseHTML } from 'linkedom';
import { installSelectSemantics } from './select-semantics.js';
import { pageContent } from '../../../functions/core/scrapers/page-content.js';

// The Runs form's model extraction fields (console/lib/schema-form.js + json-extract-panel.js) on
// a server-side DOM, with the page-content scraper's real input schema: formats as checkboxes,
// json_options as a schema editor whose value round-trips, the two kept together, and schema
// checks worded for people.

interface Form { el: HTMLElement; get(): Record<string, unknown>; set(v: unknown): void }
let schemaForm: (schema: unknown, opts?: { idPrefix?: string; onChange?: () => void }) => Form;
let checkSchemaText: (text: string) => { schema?: unknown; fields?: string[]; error?: string; offset?: number | null };
let doc: Document;

beforeAll(async () => {
  const { document, window, Node, DocumentFragment, Event } = parseHTML('<!doctype html><html><body></body></html>');
  installSelectSemantics(window);
  doc = document;
  Object.assign(globalThis, { document, window, Node, DocumentFragment, Event, location: new URL('http://127.0.0.1:3000/') });
  const form = '../../../console/lib/schema-form.js';
  const panel = '../../../console/lib/json-extract-panel.js';
  ({ schemaForm } = await import(/* @vite-ignore */ form));
  ({ checkSchemaText } = await import(/* @vite-ignore */ panel));
});

const SCHEMA = { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } }, required: ['name'] };

describe('model extraction fields in the Runs form', () => {
  it('formats are one checkbox per value; json_options is a schema editor and a prompt, off until turned on', () => {
    const f = schemaForm(pageContent.input_schema, { idPrefix: 'u' });
    doc.body.append(f.el);
    const boxes = Array.from(f.el.querySelectorAll('[data-field="formats"] input[type="checkbox"]')).map((b) => (b as HTMLInputElement).value);
    expect(boxes).toEqual(['markdown', 'text', 'links', 'metadata', 'json', 'changes', 'product', 'product_list', 'article', 'job_posting']);
    expect(f.el.querySelector('#u-json_options-schema')?.tagName).toBe('TEXTAREA');
    expect(f.el.querySelector('label[for="u-json_options-prompt"]')?.textContent).toContain('Prompt');
    f.set({ url: 'https://example.com/' });
    expect(f.get()).toEqual({ url: 'https://example.com/' });
  });

  it('a value with json round-trips: formats, schema and prompt', () => {
    const f = schemaForm(pageContent.input_schema, { idPrefix: 'r' });
    const v = { url: 'https://example.com/p', formats: ['markdown', 'json'], json_options: { schema: SCHEMA, prompt: 'The product' } };
    f.set(v);
    expect((f.el.querySelector('#r-json_options-on') as HTMLInputElement).checked).toBe(true);
    expect(f.get()).toEqual(v);
    f.set({ url: 'https://example.com/p' });
    expect((f.el.querySelector('#r-json_options-on') as HTMLInputElement).checked).toBe(false);
    expect(f.get()).toEqual({ url: 'https://example.com/p' });
  });

  it('turning extraction on adds "json" to formats and starts an empty object schema; off removes it', () => {
    let changes = 0;
    const f = schemaForm(pageContent.input_schema, { idPrefix: 't', onChange: () => changes++ });
    f.set({ url: 'https://example.com/', formats: ['markdown'] });
    const on = f.el.querySelector('#t-json_options-on') as HTMLInputElement;
    on.checked = true;
    on.dispatchEvent(new Event('change', { bubbles: true }));
    expect(f.get()).toEqual({ url: 'https://example.com/', formats: ['markdown', 'json'], json_options: { schema: { type: 'object', properties: {} } } });
    expect(changes).toBeGreaterThan(0);
    on.checked = false;
    on.dispatchEvent(new Event('change', { bubbles: true }));
    expect(f.get()).toEqual({ url: 'https://example.com/', formats: ['markdown'] });
  });

  it('a schema that is not usable stops get() with the problem and the editor to focus', () => {
    const f = schemaForm(pageContent.input_schema, { idPrefix: 'b' });
    f.set({ url: 'https://example.com/', formats: ['json'], json_options: { schema: SCHEMA } });
    const area = f.el.querySelector('#b-json_options-schema') as HTMLTextAreaElement;
    area.value = '{ "type": "array" }';
    let err: (Error & { path?: string; input?: unknown }) | undefined;
    try {
      f.get();
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toContain('"type": "object"');
    expect(err?.path).toBe('Model extraction schema');
    expect(err?.input).toBe(area);
  });
});

describe('schema checks in words', () => {
  it('accepts an object schema and names its fields', () => {
    const r = checkSchemaText(JSON.stringify(SCHEMA));
    expect(r.error).toBeUndefined();
    expect(r.fields).toEqual(['name', 'price']);
  });

  it('says where JSON breaks (line and column) and what is missing', () => {
    const r = checkSchemaText('{\n  "type": "object"\n  "properties": {}\n}');
    expect(r.error).toMatch(/^Not valid JSON yet\. Line 3, column 3: a comma \(,\) or a closing \} is missing here\.$/);
    expect(r.offset).toBe('{\n  "type": "object"\n  '.length);
  });

  it('refuses what the service would: not an object, no "type": "object", unknown types, over 32 KB', () => {
    expect(checkSchemaText('"x"').error).toContain('not a string');
    expect(checkSchemaText('{ "properties": {} }').error).toContain('The top level needs "type": "object"');
    expect(checkSchemaText('{ "type": "object", "properties": { "tags": { "type": "array", "items": { "type": "text" } } } }').error).toContain('Field "tags[]": "text" is not a JSON Schema type');
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 800 }, (_, i) => [`field_${i}`, { type: 'string', description: 'x'.repeat(30) }])) };
    expect(checkSchemaText(JSON.stringify(big)).error).toContain('the limit is 32 KB');
  });
});
