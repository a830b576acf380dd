// Model extraction in the console (API.md "Model extraction"): a JSON Schema editor (highlighting,
// completion of schema keywords, checks worded for people as you type), a prompt, and a Test
// button that scrapes one page with formats ["markdown", "json"] and shows the page's Markdown
// beside the object the model extracted, with its token usage, or why there is none (json_error,
// or the API's answer: 422 model_not_configured, 402 quota_exceeded, 400 with details).
// Used by the Runs form (the json_options field of page-content and site-crawl) and Studio.
import { h, clear, nextId, dl, isAbort } from './dom.js';
import { get, post } from './api.js';
import { copyButton, hideError, jsonView } from './ui.js';
import { codeEditor } from './code-editor.js';
import { renderMarkdown } from './markdown.js';

/** The starter the "Example schema" button writes: two typed fields, each described for the model. */
export const STARTER_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', description: 'The name of the product or the page title' },
    price: { type: 'number', description: 'The price as a number, without the currency' },
  },
  required: ['title'],
};

/** The service's schema limits (API.md): checked here too so people see them before a request. */
const MAX_SCHEMA_BYTES = 32 * 1024;
const MAX_PROMPT = 4000;
const TYPES = ['object', 'string', 'number', 'integer', 'boolean', 'array', 'null'];
const SCRAPE_TIMEOUT_MAX = 60_000;

/** Line and column (1-based) of a character offset. */
function lineCol(text, pos) {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, column: pos - before.lastIndexOf('\n') };
}

/** What JSON.parse's message means, for people who are not reading a parser's words. */
function parseProblem(message) {
  const m = String(message);
  if (/Expected ',' or '}'/.test(m)) return 'a comma (,) or a closing } is missing here';
  if (/Expected ',' or ']'/.test(m)) return 'a comma (,) or a closing ] is missing here';
  if (/property name/i.test(m)) return 'a field name in double quotes is expected here (keys need "quotes", and there is no comma before a closing })';
  if (/Unterminated string/i.test(m)) return 'a text value is not closed with a double quote (")';
  if (/Unexpected end/i.test(m)) return 'the schema stops too early: a closing } or ] is missing';
  if (/non-whitespace character after JSON/i.test(m)) return 'there is more text after the schema\'s last closing }';
  if (/Bad control character/i.test(m)) return 'a line break or tab inside a text value must be written as \\n or \\t';
  const tok = /Unexpected token '?(.)'?/.exec(m);
  if (tok) return `"${tok[1]}" is not allowed here (JSON needs double quotes around text and field names, and no comments)`;
  return m.replace(/^JSON\.parse: /, '');
}

/** Where a JSON.parse error happened, as an offset (V8 says "at position N"), or null. */
function errorOffset(text, message) {
  const m = /position (\d+)/.exec(String(message));
  if (m) return Math.min(Number(m[1]), text.length);
  if (/Unexpected end/i.test(String(message))) return text.length;
  return null;
}

/** Field types that are not JSON Schema types, found under properties and items (people write "float", "text"). */
function typeProblems(schema, path = '', out = []) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema) || out.length > 5) return out;
  const t = schema.type;
  const bad = (Array.isArray(t) ? t : t === undefined ? [] : [t]).filter((x) => !TYPES.includes(x));
  if (bad.length) out.push(`${path ? `Field "${path}"` : 'The top level'}: ${bad.map((x) => JSON.stringify(x)).join(', ')} is not a JSON Schema type; use one of ${TYPES.join(', ')}.`);
  if (schema.properties !== undefined && (typeof schema.properties !== 'object' || Array.isArray(schema.properties) || schema.properties === null))
    out.push(`${path ? `Field "${path}"` : 'The top level'}: "properties" must be an object that maps field names to their schemas.`);
  else for (const [k, v] of Object.entries(schema.properties ?? {})) typeProblems(v, path ? `${path}.${k}` : k, out);
  if (schema.items && typeof schema.items === 'object') typeProblems(schema.items, `${path || 'items'}[]`, out);
  return out;
}

/**
 * Check the text of a schema as people type it. Returns { schema, fields, notes } when it is
 * usable, or { error, offset } with the problem in words (and where, when the parser says).
 */
export function checkSchemaText(text) {
  const t = text.trim();
  if (!t) return { error: 'Write a JSON Schema here, or press "Example schema" to start from one.', offset: null };
  let schema;
  try {
    schema = JSON.parse(text);
  } catch (err) {
    const at = errorOffset(text, err.message);
    const where = at === null ? '' : (({ line, column }) => `Line ${line}, column ${column}: `)(lineCol(text, at));
    // A problem at the very end (outside a string) is text that stops early, whatever the parser expected next.
    const problem = at !== null && at >= text.trimEnd().length && !/Unterminated string/i.test(err.message) ? 'the schema stops too early: a closing } or ] is missing' : parseProblem(err.message);
    return { error: `Not valid JSON yet. ${where}${problem}.`, offset: at };
  }
  if (!schema || typeof schema !== 'object' || Array.isArray(schema))
    return { error: `The schema must be a JSON object ({ … }), not ${Array.isArray(schema) ? 'a list' : schema === null ? 'null' : `a ${typeof schema}`}.`, offset: null };
  if (schema.type !== 'object')
    return { error: `The top level needs "type": "object"${schema.type !== undefined ? ` (it says ${JSON.stringify(schema.type)})` : ''}: the model fills in one object. Put the fields you want under "properties".`, offset: null };
  const problems = typeProblems(schema);
  if (problems.length) return { error: problems.join(' '), offset: null };
  const bytes = new TextEncoder().encode(JSON.stringify(schema)).length;
  if (bytes > MAX_SCHEMA_BYTES) return { error: `The schema is ${Math.ceil(bytes / 1024)} KB; the limit is 32 KB.`, offset: null };
  const fields = Object.keys(schema.properties ?? {});
  const notes = fields.length ? `A JSON Schema for an object with ${fields.length === 1 ? 'one field' : `${fields.length} fields`}: ${fields.join(', ')}.` : 'Valid, but it has no "properties" yet: add the fields you want, for example "title": { "type": "string" }.';
  return { schema, fields, notes };
}

/** Completions in the schema editor: keywords as keys, type names as values of "type". */
function suggestSchema(c) {
  if (c.kind === 'value' && c.key === 'type') return TYPES.map((t) => ({ label: t }));
  if (c.kind === 'value' && c.key === 'format') return ['date', 'date-time', 'time', 'email', 'uri'].map((f) => ({ label: f }));
  if (c.kind !== 'key') return [];
  const present = new Set([...c.object.matchAll(/"([\w$-]+)"\s*:/g)].map((m) => m[1]));
  return [
    ['type', 'string, number, integer, boolean, array, object'],
    ['properties', 'the fields of an object'],
    ['required', 'fields the model must fill'],
    ['description', 'what the field means: the model reads it'],
    ['items', 'the schema of each array element'],
    ['enum', 'the allowed values'],
    ['format', 'date, date-time, email, uri'],
    ['minimum', 'smallest number'],
    ['maximum', 'largest number'],
  ].filter(([k]) => !present.has(k)).map(([label, detail]) => ({ label, detail }));
}

/**
 * The json_options editor: JSON Schema (code editor with live checks) and prompt.
 * Returns { el, get() -> { schema, prompt? } (throws an Error with .path and .input when the
 * schema is not usable), set({ schema, prompt }), schemaInput, promptInput }.
 */
export function jsonOptionsEditor({ idPrefix = nextId('jx'), label = 'JSON options', onChange = () => undefined } = {}) {
  const statusId = `${idPrefix}-schema-status`;
  const editor = codeEditor({
    id: `${idPrefix}-schema`, rows: 10, describedBy: statusId, suggest: suggestSchema,
    help: 'Ctrl+Space suggests schema keywords (type, properties, required, description…) and type names; Tab indents; press Esc, then Tab, to leave the editor.',
  });
  const schemaInput = editor.textarea;
  const status = h('p', { class: 'schema-status', id: statusId, 'aria-live': 'polite' });
  const where = h('button', { type: 'button', class: 'btn btn-small', hidden: true }, 'Show where');
  const example = h('button', { type: 'button', class: 'btn btn-small', id: `${idPrefix}-example` }, 'Example schema');
  const format = h('button', { type: 'button', class: 'btn btn-small' }, 'Format');
  const promptInput = h('textarea', { id: `${idPrefix}-prompt`, rows: '2', maxlength: String(MAX_PROMPT), placeholder: 'For example: the product on this page; the price in euros' });
  let last = null;

  const check = () => {
    last = checkSchemaText(schemaInput.value);
    where.hidden = last.offset === null || last.offset === undefined;
    if (last.error) {
      schemaInput.setAttribute('aria-invalid', 'true');
      status.className = 'schema-status bad';
      status.textContent = last.error;
    } else {
      schemaInput.removeAttribute('aria-invalid');
      status.className = 'schema-status ok';
      status.textContent = last.notes;
    }
    return last;
  };
  let timer;
  schemaInput.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, 200);
  });
  where.addEventListener('click', () => {
    if (last?.offset === null || last?.offset === undefined) return;
    schemaInput.focus();
    schemaInput.setSelectionRange(last.offset, Math.min(last.offset + 1, schemaInput.value.length));
  });
  const write = (text) => {
    schemaInput.value = text;
    editor.refresh();
    check();
    onChange();
  };
  example.addEventListener('click', () => {
    // Ask first only when the example would replace fields someone wrote (or text that is not yet JSON).
    const now = checkSchemaText(schemaInput.value);
    const written = schemaInput.value.trim() && (now.error ? !/^Write a JSON Schema/.test(now.error) : now.fields.length > 0);
    if (written && !confirm('Replace the schema with the example?')) return;
    write(JSON.stringify(STARTER_SCHEMA, null, 2));
  });
  format.addEventListener('click', () => {
    const r = check();
    if (r.schema) write(JSON.stringify(r.schema, null, 2));
  });

  const el = h('div', { class: 'json-options' },
    h('div', { class: 'field' },
      h('div', { class: 'label-row' }, h('label', { for: schemaInput.id }, 'JSON Schema of the object to extract'), h('span', { class: 'actions' }, example, format)),
      editor.el,
      h('div', { class: 'schema-check' }, status, where)),
    h('div', { class: 'field' },
      h('label', { for: promptInput.id }, 'Prompt (optional)'),
      promptInput,
      h('small', { class: 'hint', id: `${promptInput.id}-hint` }, 'What to extract, in your words (up to 4000 characters). The model reads the page\'s main content as Markdown.')));
  promptInput.setAttribute('aria-describedby', `${promptInput.id}-hint`);
  check();

  return {
    el,
    schemaInput,
    promptInput,
    check,
    get() {
      const r = check();
      // Shaped like a form field's error ("<path>: <message>"), so the Runs form words it the same way.
      if (r.error) throw Object.assign(new Error(`${label}: is not usable yet. ${r.error}`), { path: label, input: schemaInput });
      const prompt = promptInput.value.trim();
      return prompt ? { schema: r.schema, prompt } : { schema: r.schema };
    },
    set(v) {
      const o = v && typeof v === 'object' && !Array.isArray(v) ? v : {};
      schemaInput.value = o.schema === undefined ? '' : JSON.stringify(o.schema, null, 2);
      promptInput.value = typeof o.prompt === 'string' ? o.prompt : '';
      editor.refresh();
      check();
    },
  };
}

/** POST /v1/scrape for a Test: the page's Markdown and the extracted object. */
export function testExtraction({ url, json_options, engine, wait_for, timeout_ms, signal }) {
  const body = { url, formats: ['markdown', 'json'], json_options };
  if (engine) body.engine = engine;
  if (wait_for) body.wait_for = wait_for;
  if (typeof timeout_ms === 'number') body.timeout_ms = Math.min(timeout_ms, SCRAPE_TIMEOUT_MAX);
  return post('/v1/scrape', body, { signal });
}

/** Headlines for the API's refusals a Test can meet; the service's own message follows. */
const REFUSALS = {
  model_not_configured: 'No model provider is configured, so nothing can be extracted yet.',
  quota_exceeded: 'The model token limit for this month is used up.',
  invalid_request: 'The request was refused.',
  target_forbidden: 'This URL may not be fetched.',
};
/** What a json_error code means, before the service's message. */
const JSON_ERRORS = {
  schema_mismatch: 'The model\'s answer did not match the schema, even after one repair turn.',
  model_throttled: 'The model provider is throttling requests; try again in a moment.',
  model_rejected: 'The model provider refused the request.',
  model_unavailable: 'The model provider could not be reached.',
  quota_exceeded: 'The model token limit for this month was reached.',
};

const fmtTokens = (n) => Number(n ?? 0).toLocaleString('en-US');

/** "This month: 1,240 model tokens of 100,000 (1%)" from GET /v1/tenant (quiet: a failure shows nothing). */
async function monthUsage(host) {
  try {
    const t = await get('/v1/tenant', {}, { quiet: true });
    const used = t.usage?.model_tokens ?? 0;
    const limit = t.limits?.monthly_model_tokens ?? null;
    clear(host).append('This month: ', h('strong', {}, `${fmtTokens(used)} model tokens`),
      limit ? ` of ${fmtTokens(limit)} (${Math.round((used / limit) * 100)}%)` : ' (no monthly limit)',
      ' · ', h('a', { href: '#/monitoring' }, 'usage in Monitoring'));
  } catch {
    clear(host);
  }
}

/** Show a refusal (an ApiError) in host: a headline, the service's message, and any details. */
export function showRefusal(host, err) {
  const headline = REFUSALS[err?.code] ?? (err?.status === 400 ? REFUSALS.invalid_request : 'The test did not run.');
  const details = Array.isArray(err?.details) ? err.details : [];
  clear(host).append(h('div', { class: 'error-box extract-error', role: 'alert', dataset: { code: err?.code ?? '' } },
    h('strong', {}, headline), ' ',
    h('span', { class: 'extract-error-message' }, err?.message ?? String(err)),
    details.length ? h('ul', { class: 'detail-list' }, details.map((d) => h('li', {}, d.path ? h('strong', {}, `${String(d.path).replace(/^body\./, '')}: `) : null, d.message ?? ''))) : null,
    err?.code ? h('span', { class: 'hint' }, ` (${err.code}${err.status ? `, HTTP ${err.status}` : ''})`) : null));
}

/**
 * The page's Markdown rendered with its headings moved below the pane's own (`under` = 'h3': the
 * page's # becomes h4), so the console page keeps one h1 and an outline that reads in order.
 */
function pageMarkdown(md, under) {
  const frag = renderMarkdown(md);
  const shift = Number(under.slice(1));
  for (const hd of Array.from(frag.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const moved = h(`h${Math.min(6, Number(hd.tagName[1]) + shift)}`, { class: hd.className || null });
    moved.append(...Array.from(hd.childNodes));
    hd.replaceWith(moved);
  }
  return frag;
}

/** Show a scrape result: the page's Markdown beside the extracted JSON (or its json_error), with usage. */
export function showExtraction(host, res, { heading = 'h3' } = {}) {
  const md = typeof res.markdown === 'string' ? res.markdown : '';
  const u = res.json_usage;
  const month = h('p', { class: 'hint extract-month', 'aria-live': 'polite' });
  const pagePane = h('section', { class: 'extract-page', 'aria-label': 'The page as Markdown' },
    h(heading, {}, 'Page'),
    h('p', { class: 'hint' }, res.final_url || res.url, res.status_code ? ` · HTTP ${res.status_code}` : ''),
    md.trim() ? h('div', { class: 'markdown' }, pageMarkdown(md, heading)) : h('p', { class: 'hint' }, 'The page has no main-content text.'));
  const jsonPane = h('section', { class: 'extract-json', 'aria-label': 'Extracted JSON' },
    h('div', { class: 'label-row' }, h(heading, {}, 'Extracted JSON'), res.json !== undefined ? copyButton(() => JSON.stringify(res.json, null, 2), null, 'Copy JSON') : null),
    res.json !== undefined
      ? jsonView(res.json, { label: 'Extracted JSON' })
      : h('div', { class: 'error-box extract-json-error', role: 'alert', dataset: { code: res.json_error?.code ?? '' } },
        h('strong', {}, JSON_ERRORS[res.json_error?.code] ?? 'No object was extracted.'), ' ',
        res.json_error?.message ?? '', res.json_error?.code ? h('span', { class: 'hint' }, ` (${res.json_error.code})`) : null),
    u ? h('div', { class: 'extract-usage' }, dl([
      ['Model', h('span', { class: 'mono' }, u.model ?? '—')],
      ['Tokens', `${fmtTokens(u.input_tokens)} in + ${fmtTokens(u.output_tokens)} out = ${fmtTokens((u.input_tokens ?? 0) + (u.output_tokens ?? 0))}`],
      u.truncated ? ['Input', 'The page was cut to the model\'s input budget (at a block boundary): fields from its end may be missing.'] : null,
    ])) : null,
    month);
  clear(host).append(h('div', { class: 'extract-result' }, pagePane, jsonPane));
  void monthUsage(month);
}

/**
 * Run a Test into host: a loading line, then the result or the refusal. Returns the response,
 * or undefined when refused (the refusal is shown in host, not in the page's banner). `heading`
 * is the level of the two panes' headings, to fit the page's outline.
 */
export async function runTest(host, request, { heading = 'h3' } = {}) {
  hideError(); // an earlier banner (a refused start) is about something this Test replaces
  clear(host).append(h('p', { class: 'loading' }, `Fetching ${request.url} and extracting… `, h('span', { class: 'spinner', 'aria-hidden': 'true' })));
  try {
    const res = await testExtraction(request);
    showExtraction(host, res, { heading });
    return res;
  } catch (err) {
    if (isAbort(err)) return undefined;
    showRefusal(host, err);
    return undefined;
  }
}

/**
 * The stand-alone panel (Studio): URL, engine, schema, prompt, Test, and the result below.
 * Returns { el }.
 */
export function extractPanel({ idPrefix = 'extract', signal } = {}) {
  const url = h('input', { type: 'url', id: `${idPrefix}-url`, required: true, placeholder: 'https://…', spellcheck: 'false' });
  const engine = h('select', { id: `${idPrefix}-engine` }, ['auto', 'http', 'browser'].map((e) => h('option', { value: e }, e === 'auto' ? 'auto (default)' : e)));
  const opts = jsonOptionsEditor({ idPrefix, label: 'Schema' });
  const test = h('button', { type: 'submit', class: 'btn btn-primary', id: `${idPrefix}-test` }, 'Test');
  const result = h('div', { id: `${idPrefix}-result`, class: 'extract-host', 'aria-live': 'polite' });
  const form = h('form', { class: 'form', 'aria-label': 'Test model extraction', novalidate: true },
    h('div', { class: 'row' },
      h('div', { class: 'field' }, h('label', { for: url.id }, 'Page URL'), url),
      h('div', { class: 'field' }, h('label', { for: engine.id }, 'Engine'), engine)),
    opts.el,
    h('div', { class: 'form-actions' }, test));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!url.value.trim() || !url.checkValidity()) {
      url.reportValidity();
      url.focus();
      return;
    }
    let json_options;
    try {
      json_options = opts.get();
    } catch {
      opts.schemaInput.focus();
      return;
    }
    test.disabled = true;
    test.setAttribute('aria-busy', 'true');
    try {
      await runTest(result, { url: url.value.trim(), engine: engine.value === 'auto' ? undefined : engine.value, json_options, signal });
    } finally {
      test.disabled = false;
      test.removeAttribute('aria-busy');
    }
  });
  return { el: h('div', { class: 'extract-panel' }, form, result), editor: opts };
}
