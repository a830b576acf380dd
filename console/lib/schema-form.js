// Forms from JSON Schemas (a scraper's or runbook's input_schema): strings, numbers with bounds,
// enums, booleans, arrays of strings, nested objects and maps of objects, with defaults shown and
// help text from descriptions. A value round-trips: set(json) fills the form, get() returns the
// JSON (fields left empty are omitted, so the service applies its own defaults; keys the schema
// does not describe are kept).
//
// Widgets are looked up in WIDGETS, first match wins: a new field type (for example a JSON
// Schema editor for a `json` format) is added by putting { match, render } in front of the list.
import { h, clear, nextId } from './dom.js';

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

/** The hint under a field: its description, its bounds and its default. */
function hintFor(s) {
  const parts = [];
  if (s.description) parts.push(String(s.description).replace(/\s*\.?\s*$/, '.'));
  const t = typeOf(s);
  if (t === 'integer' || t === 'number') {
    if (s.minimum !== undefined && s.maximum !== undefined) parts.push(`From ${s.minimum} to ${s.maximum}.`);
    else if (s.minimum !== undefined) parts.push(`At least ${s.minimum}.`);
    else if (s.maximum !== undefined) parts.push(`At most ${s.maximum}.`);
  }
  if (t === 'array' && s.maxItems) parts.push(`Up to ${s.maxItems}.`);
  if (s.default !== undefined && !(Array.isArray(s.default) && !s.default.length) && typeOf(s) !== 'boolean') parts.push(`Default: ${fmtDefault(s.default)}.`);
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

/** The widgets, first match wins. render(ctx) -> { el, get(): value | undefined, set(value) }. */
export const WIDGETS = [
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
      const def = ctx.schema.default === true;
      const box = h('input', { type: 'checkbox', id: ctx.id, name: ctx.path, checked: def });
      // Sent only when it differs from the default or was set explicitly (from JSON or a click).
      let explicit = false;
      box.addEventListener('change', () => {
        explicit = true;
      });
      return {
        el: wrapField(ctx, box, { inline: true }),
        get: () => (explicit || box.checked !== def ? box.checked : undefined),
        set(v) {
          explicit = typeof v === 'boolean';
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
      const inner = objectFields(ctx.schema, { path: ctx.path, idPrefix: ctx.id, changed: ctx.changed });
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
      return {
        el: wrapField(ctx, input),
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
function objectFields(schema, { path = '', idPrefix = nextId('sf'), changed = () => undefined } = {}) {
  const props = schema?.properties ?? {};
  const required = new Set(schema?.required ?? []);
  // Required fields first, then the schema's order.
  const names = [...Object.keys(props).filter((k) => required.has(k)), ...Object.keys(props).filter((k) => !required.has(k))];
  const fields = names.map((name) => {
    const s = props[name] ?? {};
    const ctx = { schema: s, name, label: s.title ?? human(name), path: path ? `${path}.${name}` : name, id: `${idPrefix}-${name}`.replace(/[^\w-]/g, '_'), required: required.has(name), changed };
    const widget = WIDGETS.find((w) => w.match(s));
    return { name, ...widget.render(ctx) };
  });
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
  const fields = objectFields(schema, { idPrefix, changed: onChange });
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
