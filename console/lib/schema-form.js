// Forms from JSON Schemas (a scraper's or runbook's input_schema): strings, numbers with bounds,
// enums, booleans, arrays of strings, nested objects and maps of objects, with defaults shown and
// help text from descriptions. A value round-trips: set(json) fills the form, get() returns the
// JSON (fields left empty are omitted, so the service applies its own defaults; keys the schema
// does not describe are kept).
//
// Widgets are looked up in WIDGETS, first match wins: a new field type is added by putting
// { match, render } in front of the list (json_options, the model extraction schema editor, is one).
import { h, clear, nextId } from './dom.js';
import { jsonOptionsEditor, runTest } from './json-extract-panel.js';
import { modelExtraction } from './features.js';

/** Formats every item carries whether asked or not (run-formats.ts): shown ticked and fixed, never sent. */
const ALWAYS_FORMATS = new Set(['markdown', 'text', 'links', 'metadata']);

/** A problem with what is typed in a field; `path` names the field as people read it. */
export class FieldError extends Error {
  constructor(path, message, input) {
    super(`${path}: ${message}`);
    this.name = 'FieldError';
    this.path = path;
    this.input = input;
  }
}

const typeOf = (s) => {
  if (!s || typeof s !== 'object') return undefined;
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  if (s.properties) return 'object';
  if (Array.isArray(s.enum)) return typeof s.enum[0];
  return undefined;
};
const isMap = (s) => typeOf(s) === 'object' && !Object.keys(s.properties ?? {}).length && s.additionalProperties && typeof s.additionalProperties === 'object';
const WORDS = { url: 'URL', urls: 'URLs', ms: '(ms)', id: 'ID', http: 'HTTP', css: 'CSS' };
/** "start_url" -> "Start URL", "timeout_ms" -> "Timeout (ms)". */
const human = (name) =>
  String(name).split(/[_-]+/).filter(Boolean).map((w, i) => WORDS[w.toLowerCase()] ?? (i === 0 ? w[0].toUpperCase() + w.slice(1) : w)).join(' ');
const fmtDefault = (v) => (typeof v === 'string' ? v || '(empty)' : JSON.stringify(v));

/**
 * Plain words for service descriptions written for programmers (issue 41, item 13), matched on
 * the description itself so a description reworded at the source is shown as it is.
 */
const PLAIN_HELP = [
  [/^"changes": compare each page's records with their last snapshot/, 'Tick "changes" to compare each page\'s values with the copy saved last time (under the same tag) and say which values changed.'],
  [/^Change tracking \(formats includes "changes"\)$/, 'What to leave out when comparing (used when "changes" is ticked).'],
  [/^markdown: the main content only/, 'On: the Markdown keeps only the page\'s main content, without navigation, headers, footers, sidebars, related links, comments or share bars. Off: the whole page.'],
  [/^Field name -> \{ selector, attr\?, all\? \}$/, 'The values to take from each page (or each repeated item): give each a name and the CSS selector of the element that holds it. Its text is taken, or an attribute you name (href, src…); tick "All" for every match as a list.'],
  [/^Baseline family/, 'A name for this history of the page: each run is compared with the last copy saved under the same tag. Use another tag to keep a separate history of the same page (default "default").'],
  [/^RE2 regular expressions whose matches are removed/, 'Patterns (regular expressions) for text that changes without meaning, such as a visitor counter: what they match is left out before two versions are compared.'],
  [/says cached: true with its fetched_at/, 'How old, in milliseconds, an answer may be: when this account fetched the same page with the same options that recently, that copy is returned (marked as cached, with the time it was fetched) instead of fetching again. 0 (the default) always fetches. Never for pages with actions or secrets.'],
];
const plainDescription = (d) => {
  const text = String(d ?? '');
  const hit = PLAIN_HELP.find(([re]) => re.test(text));
  return hit ? hit[1] : text;
};

/** A boolean default said in a description ("… (default true)"), when the schema has none. */
export function describedDefault(s) {
  if (typeof s?.default === 'boolean') return s.default;
  const m = /\(default (true|false|on|off)\)|default(?:s to|:)? (true|false|on|off)\b/i.exec(String(s?.description ?? ''));
  const w = (m?.[1] ?? m?.[2])?.toLowerCase();
  return w ? w === 'true' || w === 'on' : undefined;
}

/** The hint under a field: its description, its bounds and its default. */
function hintFor(s) {
  const parts = [];
  if (s.description) parts.push(plainDescription(s.description).replace(/\s*\.?\s*$/, '.'));
  const t = typeOf(s);
  if (t === 'integer' || t === 'number') {
    if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`From ${s.minimum} to ${s.maximum}.`);
    else if (s.minimum !== undefined) parts.push(`At least ${s.minimum}.`);
    else if (s.maximum !== undefined) parts.push(`At most ${s.maximum}.`);
  }
  if (t === 'array' && s.maxItems) parts.push(`Up to ${s.maxItems}.`);
  if (s.default !== undefined && !(Array.isArray(s.default) && !s.default.length) && typeOf(s) !== 'boolean') parts.push(`Default: ${fmtDefault(s.default)}.`);
  if (typeOf(s) === 'boolean' && typeof s.default === 'boolean') parts.push(`Default: ${s.default ? 'on' : 'off'}.`);
  return parts.join(' ');
}

/** Label + control + hint, wired with for/aria-describedby. */
function wrapField(ctx, control, { inline = false } = {}) {
  const hint = hintFor(ctx.schema);
  const hintEl = hint ? h('small', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  if (ctx.required) control.setAttribute('aria-required', 'true');
  const label = h('label', { for: control.id, class: inline ? 'check' : null }, inline ? [control, ' '] : null, ctx.label, ctx.required ? h('span', { class: 'req' }, ' (required)') : null);
  return h('div', { class: 'field', dataset: { field: ctx.path } }, label, inline ? null : control, hintEl);
}

/**
 * The widgets, first match wins: match(schema, name). render(ctx) -> { el, get(): value | undefined,
 * set(value), link?() }. ctx.sibling(name) is another field of the same object (after all are
 * made, link() is called so a widget can follow a sibling); ctx.formValue() is the whole form's value.
 */
export const WIDGETS = [
  {
    // Model extraction options (page-content, site-crawl): a JSON Schema editor, a prompt and a
    // Test button that scrapes the form's URL with the json format. Turning it on or off adds or
    // removes "json" in the sibling formats field (the service needs both), and the other way round.
    name: 'json-options',
    match: (s, name) => name === 'json_options' && typeOf(s) === 'object' && !!s.properties?.schema,
    render(ctx) {
      const on = h('input', { type: 'checkbox', id: `${ctx.id}-on` });
      const editor = jsonOptionsEditor({ idPrefix: ctx.id, label: 'Model extraction schema', onChange: () => ctx.changed() });
      const test = h('button', { type: 'button', class: 'btn', id: `${ctx.id}-test` }, 'Test on the URL');
      const result = h('div', { id: `${ctx.id}-result`, class: 'extract-host', 'aria-live': 'polite' });
      const body = h('div', { class: 'json-options-body', hidden: true }, editor.el,
        h('div', { class: 'form-actions' }, test, h('small', { class: 'hint' }, 'Scrapes the URL above once, now, with the json format, and shows the page beside the extracted object. Nothing is stored as a run; the model tokens count toward this month\'s usage.')),
        result);
      const formats = () => ctx.sibling('formats');
      const show = (v) => {
        on.checked = v;
        body.hidden = !v;
      };
      on.addEventListener('change', () => {
        show(on.checked);
        const f = formats();
        if (f) {
          const cur = (f.get() ?? []).filter((x) => x !== 'json');
          f.set(on.checked ? [...cur, 'json'] : cur);
        }
        if (on.checked && !editor.schemaInput.value.trim()) editor.set({ schema: { type: 'object', properties: {} } });
        ctx.changed();
      });
      test.addEventListener('click', async () => {
        let input;
        let json_options;
        try {
          json_options = editor.get();
          input = ctx.formValue();
        } catch (err) {
          err.input?.focus();
          result.replaceChildren(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'Not tested: '), err.message));
          return;
        }
        const url = input.url ?? input.start_url;
        if (!url) {
          result.replaceChildren(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'Not tested: '), 'fill in the URL first.'));
          (ctx.sibling('url') ?? ctx.sibling('start_url'))?.el.querySelector('input')?.focus();
          return;
        }
        test.disabled = true;
        test.setAttribute('aria-busy', 'true');
        try {
          await runTest(result, { url, json_options, engine: input.engine, wait_for: input.wait_for, timeout_ms: input.timeout_ms }, { heading: 'h2' });
        } finally {
          test.disabled = false;
          test.removeAttribute('aria-busy');
        }
      });
      const reason = h('small', { class: 'disabled-reason', id: `${ctx.id}-unavailable`, hidden: true });
      // No model provider: the option cannot work, so it is off and disabled, with the reason.
      modelExtraction().then((m) => {
        if (m.available) return;
        on.disabled = true;
        on.setAttribute('aria-describedby', reason.id);
        reason.textContent = `Not available here: ${m.reason ?? 'no model provider is configured.'}`;
        reason.hidden = false;
      });
      const el = h('fieldset', { class: 'field nested json-options-field', dataset: { field: ctx.path } },
        h('legend', {}, 'Model extraction (JSON)'),
        h('label', { class: 'check', for: on.id }, on, ' Extract structured data with a model (adds "json" to Formats)'),
        reason,
        h('small', { class: 'hint' }, 'Give a JSON Schema (and optionally a prompt); each item\'s data then carries json, an object valid against it, read from the page\'s main content by a model.'),
        body);
      return {
        el,
        get: () => (on.checked ? editor.get() : undefined),
        set(v) {
          const has = !!v && typeof v === 'object' && !Array.isArray(v);
          show(has);
          editor.set(has ? v : {});
        },
        link() {
          // Ticking "json" in Formats turns extraction on too (and unticking turns it off).
          formats()?.el.addEventListener('change', (e) => {
            if (e.target?.value !== 'json') return;
            show(e.target.checked);
            if (on.checked && !editor.schemaInput.value.trim()) editor.set({ schema: { type: 'object', properties: {} } });
          });
        },
      };
    },
  },
  {
    // Arrays of enum values (formats): one checkbox per value.
    name: 'enum-list',
    match: (s) => typeOf(s) === 'array' && Array.isArray(s.items?.enum) && s.items.enum.length > 0 && s.items.enum.length <= 12,
    render(ctx) {
      const values = ctx.schema.items.enum;
      // formats: the fields every item carries show ticked and fixed (they are never sent); the
      // others (json, changes) are the real choice, and json is disabled without a model provider.
      const always = (v) => ctx.name === 'formats' && ALWAYS_FORMATS.has(v);
      const boxes = values.map((v, i) => h('input', { type: 'checkbox', id: `${ctx.id}-${i}`, name: ctx.path, value: String(v), checked: always(v), disabled: always(v) }));
      if (ctx.name === 'formats') {
        const jsonBox = boxes[values.indexOf('json')];
        if (jsonBox) modelExtraction().then((m) => {
          if (m.available) return;
          jsonBox.checked = false;
          jsonBox.disabled = true;
          jsonBox.title = m.reason ?? 'No model provider is configured.';
        });
      }
      let explicitAlways = [];
      const hint = hintFor(ctx.schema);
      const hintEl = hint ? h('small', { class: 'hint', id: `${ctx.id}-hint` }, hint) : null;
      const el = h('fieldset', { class: 'field checks', dataset: { field: ctx.path }, 'aria-describedby': hintEl?.id },
        h('legend', {}, ctx.label, ctx.required ? h('span', { class: 'req' }, ' (required)') : null),
        h('div', { class: 'check-row' }, boxes.map((b, i) => h('label', { class: 'check', for: b.id }, b, ' ', String(values[i]), always(values[i]) ? h('span', { class: 'hint' }, ' (always)') : null))),
        hintEl);
      return {
        el,
        get() {
          const out = values.filter((x, i) => boxes[i].checked && !always(x));
          // Only always-returned formats asked for explicitly (from JSON) are kept as asked.
          const asked = values.filter((x) => always(x) && explicitAlways.includes(x));
          return out.length || asked.length ? [...asked, ...out] : undefined;
        },
        set(v) {
          const want = Array.isArray(v) ? v : [];
          explicitAlways = want.filter((x) => always(x));
          values.forEach((x, i) => {
            boxes[i].checked = always(x) || want.includes(x);
          });
        },
      };
    },
  },
  {
    name: 'enum',
    match: (s) => Array.isArray(s.enum) && s.enum.length > 0,
    render(ctx) {
      const s = ctx.schema;
      const opts = s.enum.map((v, i) => h('option', { value: String(i) }, `${typeof v === 'string' ? v : JSON.stringify(v)}${s.default !== undefined && v === s.default ? ' (default)' : ''}`));
      const sel = h('select', { id: ctx.id, name: ctx.path }, ctx.required && s.default === undefined ? null : h('option', { value: '' }, s.default !== undefined ? `Default (${fmtDefault(s.default)})` : 'Not set'), opts);
      return {
        el: wrapField(ctx, sel),
        get: () => (sel.value === '' ? undefined : s.enum[Number(sel.value)]),
        set(v) {
          const i = s.enum.findIndex((x) => x === v);
          const want = i >= 0 ? String(i) : '';
          for (const o of Array.from(sel.options)) o.selected = o.value === want;
        },
      };
    },
  },
  {
    name: 'boolean',
    match: (s) => typeOf(s) === 'boolean',
    render(ctx) {
      // No default known: the service decides unless the person does, so the choice has three
      // states (Default / On / Off) rather than a box that would claim "off".
      // When the schema declares no default but its description says one, the choice says it.
      if (typeof ctx.schema.default !== 'boolean') {
        const said = describedDefault(ctx.schema);
        const def = said === undefined ? 'Default (the service decides)' : `Default (${said ? 'on' : 'off'})`;
        const sel = h('select', { id: ctx.id, name: ctx.path }, h('option', { value: '' }, def), h('option', { value: 'true' }, 'On'), h('option', { value: 'false' }, 'Off'));
        return {
          el: wrapField(ctx, sel),
          get: () => (sel.value === '' ? undefined : sel.value === 'true'),
          set(v) {
            sel.value = typeof v === 'boolean' ? String(v) : '';
          },
        };
      }
      const def = ctx.schema.default;
      // The box shows the default as its state. It is sent only when it differs from the default,
      // or when the input (JSON) said so: ticking then unticking sends nothing.
      const box = h('input', { type: 'checkbox', id: ctx.id, name: ctx.path, checked: def });
      let fromInput = false;
      box.addEventListener('change', () => {
        fromInput = false;
      });
      return {
        el: wrapField(ctx, box, { inline: true }),
        get: () => (fromInput || box.checked !== def ? box.checked : undefined),
        set(v) {
          fromInput = typeof v === 'boolean';
          box.checked = typeof v === 'boolean' ? v : def;
        },
      };
    },
  },
  {
    name: 'number',
    match: (s) => typeOf(s) === 'integer' || typeOf(s) === 'number',
    render(ctx) {
      const s = ctx.schema;
      const input = h('input', {
        type: 'number', id: ctx.id, name: ctx.path, inputmode: s.type === 'integer' ? 'numeric' : 'decimal',
        min: s.minimum, max: s.maximum, step: typeOf(s) === 'integer' ? '1' : 'any', required: ctx.required,
        placeholder: s.default !== undefined ? String(s.default) : '',
      });
      return {
        el: wrapField(ctx, input),
        get() {
          const v = input.value.trim();
          if (!v) {
            if (input.validity?.badInput) throw new FieldError(ctx.label, 'is not a number', input);
            return undefined;
          }
          const n = Number(v);
          if (!Number.isFinite(n)) throw new FieldError(ctx.label, 'is not a number', input);
          return n;
        },
        set(v) {
          input.value = typeof v === 'number' ? String(v) : '';
        },
      };
    },
  },
  {
    name: 'string-list',
    match: (s) => typeOf(s) === 'array' && ['string', undefined].includes(typeOf(s.items)) && !s.items?.properties,
    render(ctx) {
      const area = h('textarea', { id: ctx.id, name: ctx.path, rows: '3', class: 'mono', spellcheck: 'false', placeholder: 'One per line' });
      const el = wrapField(ctx, area);
      el.querySelector('small.hint')?.prepend('One per line. ');
      if (!el.querySelector('small.hint')) {
        const hint = h('small', { class: 'hint', id: `${area.id}-hint` }, 'One per line.');
        area.setAttribute('aria-describedby', hint.id);
        el.append(hint);
      }
      return {
        el,
        get() {
          const lines = area.value.split('\n').map((x) => x.trim()).filter(Boolean);
          return lines.length ? lines : undefined;
        },
        set(v) {
          area.value = Array.isArray(v) ? v.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') : '';
        },
      };
    },
  },
  {
    name: 'map',
    match: isMap,
    render(ctx) {
      const itemSchema = ctx.schema.additionalProperties;
      const rows = h('div', { class: 'map-rows' });
      const entries = [];
      const add = (key = '', value) => {
        const keyInput = h('input', { type: 'text', id: nextId('mapkey'), class: 'mono', spellcheck: 'false', value: key, placeholder: 'name' });
        const inner = objectFields(itemSchema, { path: `${ctx.path}.*`, idPrefix: nextId('map') });
        if (value !== undefined) inner.set(value);
        const remove = h('button', { type: 'button', class: 'btn btn-small btn-danger' }, 'Remove');
        const entry = { keyInput, inner };
        const row = h('fieldset', { class: 'map-row' },
          h('legend', { class: 'sr-only' }, `${ctx.label} entry`),
          h('div', { class: 'field map-key' }, h('label', { for: keyInput.id }, 'Name'), keyInput),
          inner.el,
          h('div', { class: 'map-remove' }, remove));
        remove.setAttribute('aria-label', `Remove this ${ctx.label} entry`);
        remove.addEventListener('click', () => {
          entries.splice(entries.indexOf(entry), 1);
          row.remove();
          ctx.changed();
        });
        entries.push(entry);
        rows.append(row);
        return entry;
      };
      const addBtn = h('button', { type: 'button', class: 'btn btn-small' }, `Add ${ctx.label.toLowerCase().replace(/s$/, '')}`);
      addBtn.addEventListener('click', () => {
        add().keyInput.focus();
        ctx.changed();
      });
      const hint = hintFor(ctx.schema);
      const el = h('fieldset', { class: 'field nested', dataset: { field: ctx.path } },
        h('legend', {}, ctx.label, ctx.required ? h('span', { class: 'req' }, ' (required)') : null),
        hint ? h('small', { class: 'hint' }, hint) : null, rows, h('div', {}, addBtn));
      return {
        el,
        get() {
          const out = {};
          for (const e of entries) {
            const k = e.keyInput.value.trim();
            const v = e.inner.get();
            if (!k && v === undefined) continue;
            if (!k) throw new FieldError(ctx.label, 'an entry has no name', e.keyInput);
            out[k] = v ?? {};
          }
          return Object.keys(out).length ? out : undefined;
        },
        set(v) {
          entries.length = 0;
          clear(rows);
          if (v && typeof v === 'object' && !Array.isArray(v)) for (const [k, x] of Object.entries(v)) add(k, x);
        },
      };
    },
  },
  {
    name: 'object',
    match: (s) => typeOf(s) === 'object' && Object.keys(s.properties ?? {}).length > 0,
    render(ctx) {
      const inner = objectFields(ctx.schema, { path: ctx.path, idPrefix: ctx.id, changed: ctx.changed, formValue: ctx.formValue });
      const hint = hintFor(ctx.schema);
      const el = h('fieldset', { class: 'field nested', dataset: { field: ctx.path } },
        h('legend', {}, ctx.label, ctx.required ? h('span', { class: 'req' }, ' (required)') : null),
        hint ? h('small', { class: 'hint' }, hint) : null, inner.el);
      return { el, get: () => inner.get(), set: (v) => inner.set(v) };
    },
  },
  {
    name: 'string',
    match: (s) => typeOf(s) === 'string',
    render(ctx) {
      const s = ctx.schema;
      const uri = s.format === 'uri' || s.format === 'url';
      const long = (s.maxLength ?? 0) > 500 && !uri;
      const input = long
        ? h('textarea', { id: ctx.id, name: ctx.path, rows: '3', maxlength: s.maxLength, required: ctx.required })
        : h('input', { type: uri ? 'url' : 'text', id: ctx.id, name: ctx.path, maxlength: s.maxLength, minlength: s.minLength, required: ctx.required, spellcheck: 'false',
          placeholder: s.default ? String(s.default) : uri ? 'https://…' : '' });
      const el = wrapField(ctx, input);
      return {
        el,
        get: () => (input.value.trim() === '' ? undefined : input.value.trim()),
        set(v) {
          input.value = typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
        },
      };
    },
  },
  {
    // Anything else (unions, arrays of objects, untyped): edited as JSON in place.
    name: 'json',
    match: () => true,
    render(ctx) {
      const area = h('textarea', { id: ctx.id, name: ctx.path, rows: '3', class: 'mono', spellcheck: 'false', placeholder: 'JSON' });
      const el = wrapField(ctx, area);
      return {
        el,
        get() {
          const t = area.value.trim();
          if (!t) return undefined;
          try {
            return JSON.parse(t);
          } catch (err) {
            throw new FieldError(ctx.label, `is not valid JSON (${err.message})`, area);
          }
        },
        set(v) {
          area.value = v === undefined ? '' : JSON.stringify(v, null, 2);
        },
      };
    },
  },
];

/** The fields of an object schema. Returns { el, get(), set(value) }. */
function objectFields(schema, { path = '', idPrefix = nextId('sf'), changed = () => undefined, formValue = () => ({}) } = {}) {
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  // Required fields first, then the schema's order.
  const names = [...Object.keys(props).filter((k) => required.has(k)), ...Object.keys(props).filter((k) => !required.has(k))];
  const byName = new Map();
  const fields = names.map((name) => {
    const s = props[name] ?? {};
    const ctx = {
      schema: s, name, label: s.title ?? human(name), path: path ? `${path}.${name}` : name, id: `${idPrefix}-${name}`.replace(/[^\w-]/g, '_'), required: required.has(name), changed,
      sibling: (n) => byName.get(n), formValue,
    };
    const widget = WIDGETS.find((w) => w.match(s, name));
    const f = { name, ...widget.render(ctx) };
    byName.set(name, f);
    return f;
  });
  for (const f of fields) f.link?.();
  let extras = {};
  const el = h('div', { class: 'schema-fields' }, fields.map((f) => f.el));
  return {
    el,
    get() {
      const out = { ...extras };
      for (const f of fields) {
        const v = f.get();
        if (v === undefined) delete out[f.name];
        else out[f.name] = v;
      }
      return Object.keys(out).length ? out : undefined;
    },
    set(v) {
      const obj = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
      extras = Object.fromEntries(Object.entries(obj).filter(([k]) => !(k in props)));
      for (const f of fields) f.set(obj[f.name]);
    },
    get extraKeys() {
      return Object.keys(extras);
    },
  };
}

/** Whether a schema describes fields a form can show (else the JSON tab is the way in). */
export const hasFields = (schema) => typeOf(schema) === 'object' && Object.keys(schema?.properties ?? {}).length > 0;

/**
 * A form for an object schema. onChange() is called after any edit. get() returns the JSON
 * object ({} when nothing is filled) or throws a FieldError; set(value) fills the form.
 */
export function schemaForm(schema, { idPrefix = nextId('sf'), onChange = () => undefined } = {}) {
  // formValue: the whole form's value, for widgets that act on it (the json_options Test reads the URL).
  const fields = objectFields(schema, { idPrefix, changed: onChange, formValue: () => fields.get() ?? {} });
  const extrasNote = h('p', { class: 'hint', hidden: true });
  const el = h('div', { class: 'schema-form' }, fields.el, extrasNote);
  el.addEventListener('input', () => onChange());
  el.addEventListener('change', () => onChange());
  const showExtras = () => {
    const keys = fields.extraKeys;
    extrasNote.hidden = !keys.length;
    extrasNote.textContent = keys.length ? `Also sent (set in the JSON tab): ${keys.join(', ')}.` : '';
  };
  return {
    el,
    get: () => fields.get() ?? {},
    set(v) {
      fields.set(v);
      showExtras();
    },
  };
}
