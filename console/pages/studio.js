// Studio: build declarative runbooks (steps as JSON in a highlighting editor with completion of
// step actions and fields), test one synchronously, publish it as a scraper; test a model
// extraction schema on a page.
import { h, clear, field, table, dl, badge, time, truncate, extLink, isAbort } from '../lib/dom.js';
import { ApiError, del, get, post, put, seg } from '../lib/api.js';
import { busy, hideError, jsonView, pageHeader, section, showError, showNotice } from '../lib/ui.js';
import { codeEditor } from '../lib/code-editor.js';
import { itemsView } from '../lib/results.js';
import { extractPanel } from '../lib/json-extract-panel.js';
import { blankStep, stepForms } from '../lib/step-forms.js';

const DEFAULT_INPUT_SCHEMA = { type: 'object', additionalProperties: true };
const ACTION_HELP = {
  goto: 'Open a URL (absolute, or {"input": "name"} to take it from the run input). Must be the first step.',
  click: 'Click an element; navigation: true waits for the page it opens.',
  fill: 'Type into a field. value: a literal, {"input": "name"} or {"secret": "name"} (secrets fill only on allowlisted hosts).',
  wait_for: 'Wait until a selector appears.',
  scroll: 'Scroll down (for lazy-loaded content).',
  extract: 'Collect fields by CSS selector; item_selector makes one item per matching element.',
  paginate: 'Follow a next-page link and repeat the previous extract step.',
  content: 'Return the current page as one item: markdown of its main content (only_main_content, include_tags, exclude_tags), text, links, metadata.',
  screenshot: 'Take a PNG screenshot (shown in the test result).',
};

/** The action name of a step schema from the studio catalogue. */
const actionOf = (s) => s?.properties?.action?.const;

/** A sample value for a catalogue property (required ones and ones with defaults go in a template). */
function sample(name, s, depth = 0) {
  if (!s || typeof s !== 'object' || depth > 4) return null;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  const alt = s.anyOf ?? s.oneOf;
  if (Array.isArray(alt) && alt.length) return sample(name, alt[0], depth + 1);
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'string':
      return { url: 'https://example.com/', selector: 'h1', next: 'a[rel="next"]', wait_for: 'main', item_selector: '.item', name: 'page' }[name] ?? '';
    case 'integer':
    case 'number':
      return s.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object': {
      if (!s.properties && s.additionalProperties && typeof s.additionalProperties === 'object')
        return { [name === 'fields' ? 'title' : 'key']: sample('', s.additionalProperties, depth + 1) };
      const out = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) if ((s.required ?? []).includes(k) || v.default !== undefined) out[k] = sample(k, v, depth + 1);
      return out;
    }
    default:
      return null;
  }
}

/** A step template for a catalogue entry: its required fields and those with defaults. */
export const templateFor = (stepSchema) => sample('', { ...stepSchema, type: 'object' });

/** "url (required), wait_for" for a catalogue entry. */
const fieldList = (s) =>
  Object.keys(s?.properties ?? {})
    .filter((k) => k !== 'action')
    .map((k) => ((s.required ?? []).includes(k) ? `${k} (required)` : k))
    .join(', ') || 'no other fields';

/**
 * A validation path for people: "body.steps.2.max_pages" -> "step 3 (extract), max_pages";
 * "body.name" -> "name". `list` is the step list as typed (for the step's action).
 */
export function humanPath(path, list) {
  const p = String(path ?? '').replace(/^body\.?/, '');
  const m = /^steps\.(\d+)(?:\.(.*))?$/.exec(p);
  if (!m) return p === 'steps' ? 'steps' : p.replace(/\.(\d+)(?=\.|$)/g, (_, n) => ` ${Number(n) + 1}`);
  const st = Array.isArray(list) ? list[Number(m[1])] : null;
  const head = `step ${Number(m[1]) + 1}${typeof st?.action === 'string' ? ` (${st.action})` : ''}`;
  return m[2] ? `${head}, ${m[2].replace(/\.(\d+)(?=\.|$)/g, (_, n) => `[${n}]`)}` : head;
}

/**
 * The inputs a step list reads ({input: name}) and how: `url` for the first goto's (an absolute
 * URL), else what it is typed into. The same derivation as the API's input contract
 * (functions/core/scrapers/runbook-input-contract.ts), live while the steps are edited.
 */
export function referencedInputs(steps) {
  const out = new Map();
  if (!Array.isArray(steps)) return out;
  steps.forEach((st, i) => {
    const use = (name) => (out.has(name) ? out.get(name) : out.set(name, { url: false, fills: [] }).get(name));
    if (st?.action === 'goto' && st.url && typeof st.url === 'object' && typeof st.url.input === 'string') {
      if (i === 0) use(st.url.input).url = true;
      else use(st.url.input).fills.push('a later goto');
    }
    if (st?.action === 'fill' && st.value && typeof st.value === 'object' && typeof st.value.input === 'string') use(st.value.input).fills.push(st.selector ?? '');
  });
  return out;
}

/**
 * A test input that runs here: each input's author example, else what the test input had, else
 * (a URL input) the URL the author previewed; never an address made up for the example.
 */
export function testInputFor(steps, schema, previous = {}, pageUrl = '') {
  const props = schema?.properties ?? {};
  const out = {};
  for (const [name, use] of referencedInputs(steps)) {
    const ex = Array.isArray(props[name]?.examples) ? props[name].examples[0] : props[name]?.example;
    if (['string', 'number', 'boolean'].includes(typeof previous[name]) && previous[name] !== '') out[name] = previous[name];
    else if (['string', 'number', 'boolean'].includes(typeof ex)) out[name] = ex;
    else out[name] = use.url && pageUrl ? pageUrl : '';
  }
  return out;
}

// ---- list -----------------------------------------------------------------------------------

export async function studioPage(page, ctx) {
  const t = table(
    [
      { label: 'Name', render: (r) => h('a', { href: `#/studio/${encodeURIComponent(r.id)}` }, r.name) },
      { label: 'Id', render: (r) => h('span', { class: 'mono small' }, r.id) },
      { label: 'State', render: (r) => (r.published ? badge('published', 'succeeded') : badge('draft', 'cancelled')) },
      { label: 'Steps', render: (r) => String(r.steps ?? 0) },
      { label: 'Updated', render: (r) => time(r.updated_at) },
      {
        label: 'Actions',
        render: (r) =>
          h('div', { class: 'actions' },
            h('a', { href: `#/studio/${encodeURIComponent(r.id)}`, class: 'btn btn-small', 'aria-label': `Edit / test ${r.name}` }, 'Edit / test'),
            r.published ? h('a', { href: `#/runs?scraper=${encodeURIComponent(r.id)}`, class: 'btn btn-small', 'aria-label': `Start a run of ${r.name}` }, 'Start a run') : null),
      },
    ],
    { caption: 'Runbooks', empty: 'No runbooks yet. Create one to automate a site with browser steps.' },
  );
  const catalogue = h('div', { id: 'studio-catalogue' });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  const load = async () => {
    const st = await get('/dashboard/api/studio', {}, { signal: ctx.signal });
    t.reset();
    t.add(st.runbooks ?? []);
    const cat = table(
      [
        { label: 'Action', render: (s) => h('code', {}, actionOf(s)) },
        { label: 'Fields', render: (s) => fieldList(s) },
        { label: 'What it does', class: 'wide', render: (s) => ACTION_HELP[actionOf(s)] ?? '' },
      ],
      { caption: 'Step actions' },
    );
    cat.add((st.steps ?? []).filter(actionOf));
    clear(catalogue).append(cat.el);
  };
  refresh.addEventListener('click', () => busy(refresh, load, 'Studio'));
  page.append(
    pageHeader('Studio', refresh, h('a', { href: '#/studio/new', class: 'btn btn-primary', id: 'studio-new' }, 'New runbook')),
    h('p', { class: 'lead' },
      'A runbook automates a site with declarative browser steps. Test it here; publish it and it becomes a scraper you can start from Runs. Every page it opens goes through the same governance as runs: target policy, robots.txt and challenge detection (challenges are never solved).'),
    section('Runbooks', h('div', { id: 'studio-runbooks' }, t.el)),
    // Runbook steps collect by selector and give no page Markdown, so model extraction is tested
    // here on its own: a schema tried on a URL, to be used in a page-content or site-crawl run.
    h('section', { class: 'card', id: 'studio-extract-card', 'aria-labelledby': 'studio-extract-h' },
      h('h2', { id: 'studio-extract-h' }, 'Model extraction'),
      h('p', { class: 'lead' },
        'Get a typed object from any page without writing selectors: give a JSON Schema (and optionally a prompt) and test it on a URL. Then use it in a Page content or Site crawl run (Model extraction in the ',
        h('a', { href: '#/runs' }, 'Runs form'), '), or with POST /v1/scrape and formats ["json"].'),
      extractPanel({ idPrefix: 'studio-extract', signal: ctx.signal }).el),
    h('details', { class: 'card' }, h('summary', {}, h('span', { class: 'h2' }, 'Step catalogue')), catalogue),
  );
  await busy(refresh, load, 'Studio');
}

// ---- editor and test ----------------------------------------------------------------------

export async function runbookEditor(page, ctx) {
  let id = ctx.params.id === 'new' ? null : ctx.params.id;
  let saved = null; // the body last saved (JSON text), for "unsaved changes"
  let catalogue = [];

  const title = h('h1', { tabindex: '-1' }, id ? `Runbook ${id}` : 'New runbook');
  const remove = h('button', { type: 'button', class: 'btn btn-danger', id: 'rb-delete', hidden: !id }, 'Delete');
  const startRun = h('a', { class: 'btn', id: 'rb-start-run', hidden: true }, 'Start a run');
  const head = h('div', { class: 'page-head' }, title, h('div', { class: 'actions' }, startRun, remove));

  // The form
  const name = h('input', { type: 'text', id: 'rb-name', name: 'name', required: true, maxlength: '200', placeholder: 'Product prices' });
  const description = h('textarea', { id: 'rb-description', name: 'description', rows: '2', maxlength: '2000' });
  const published = h('input', { type: 'checkbox', id: 'rb-published', name: 'published' });
  const stepsHintId = 'rb-steps-hint';
  const editor = codeEditor({ id: 'rb-steps', rows: 18, describedBy: stepsHintId, suggest: (c) => suggestFor(c, catalogue) });
  const steps = editor.textarea;
  steps.name = 'steps';
  const setSteps = (text) => {
    steps.value = text;
    editor.refresh();
  };
  const inputSchema = h('textarea', { id: 'rb-input-schema', name: 'input_schema', rows: '6', class: 'mono', spellcheck: 'false' });
  const actionSel = h('select', { id: 'rb-step-action', name: 'step_action' });
  const actionHelp = h('small', { class: 'hint', id: 'rb-step-help', 'aria-live': 'polite' });
  actionSel.setAttribute('aria-describedby', actionHelp.id);
  const addStep = h('button', { type: 'button', class: 'btn', id: 'rb-add-step' }, 'Add step');
  // The page the picker shows: the first goto's URL, or the test input's value for it.
  const pageUrl = () => {
    let list;
    try {
      list = parseSteps();
    } catch {
      list = forms.get();
    }
    const first = Array.isArray(list) ? list[0] : null;
    if (first?.action === 'goto' && typeof first.url === 'string') {
      if (/^https?:\/\/\S+$/i.test(first.url.trim())) lastPageUrl = first.url.trim();
      return first.url.trim();
    }
    if (first?.action === 'goto' && typeof first.url?.input === 'string') return String(testInputValue()[first.url.input] ?? '').trim();
    return '';
  };
  // The last literal URL the first goto had: when it becomes a run input, the test input takes it.
  let lastPageUrl = '';
  const testInputValue = () => {
    try {
      const v = JSON.parse(testInput.value || '{}');
      return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
    } catch {
      return {};
    }
  };
  // Step forms: every edit rewrites the JSON view; a JSON edit rebuilds the forms.
  const forms = stepForms({
    onChange: (list) => {
      setSteps(JSON.stringify(list, null, 2));
      afterStepsChange();
    },
    pickFor: (index) => ({
      url: pageUrl,
      // The page as the steps before this one leave it (the service runs them first).
      steps: () => forms.get().slice(0, index),
      input: () => Object.fromEntries(Object.entries(testInputValue()).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v))),
    }),
  });
  // The run input the steps read, described by the author (stored in input_schema.properties).
  const inputsHost = h('div', { id: 'rb-inputs' });
  const format = h('button', { type: 'button', class: 'btn btn-small', id: 'rb-format' }, 'Format JSON');
  const errors = h('div', { id: 'rb-errors', 'aria-live': 'polite' });
  const dirty = h('span', { class: 'hint', id: 'rb-dirty', 'aria-live': 'polite' });
  const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'rb-save' }, id ? 'Save' : 'Create runbook');
  const stepsHint = h('small', { class: 'hint', id: stepsHintId },
    'The same steps as a JSON array (the first is a goto); edits here update the forms above, and the other way round.');

  const form = h('form', { class: 'form', 'aria-label': 'Runbook', novalidate: true },
    field('Name', name),
    field('Description', description),
    h('div', { class: 'field' },
      h('label', { class: 'check', for: published.id }, published, ' Published'),
      h('small', { class: 'hint' }, 'A published runbook is a scraper: it appears under Runs with its rbk_… id as the scraper id.')),
    h('div', { class: 'field' }, h('span', { class: 'label' }, 'Steps'), forms.el,
      h('small', { class: 'hint' }, 'Pick fills a selector by pointing at the page, rendered by the service\'s browser; the count under it says how many elements it matches.')),
    h('fieldset', { class: 'field add-step' },
      h('legend', {}, 'Add a step'),
      h('div', { class: 'inline-form' }, h('div', { class: 'field' }, h('label', { for: actionSel.id }, 'Action'), actionSel), addStep),
      actionHelp),
    h('details', { class: 'sub', id: 'rb-json-view', open: true }, h('summary', {}, 'Steps as JSON'),
      h('div', { class: 'field' },
        h('div', { class: 'label-row' }, h('label', { for: steps.id }, 'Steps (JSON)'), format),
        editor.el, stepsHint)),
    h('fieldset', { class: 'field' }, h('legend', {}, 'Run input'),
      h('small', { class: 'hint' }, 'What a run of this runbook takes: one input per {"input": "name"} the steps read. Describe each, and give an example that works: the Runs form and the test start from it.'),
      inputsHost),
    h('details', { class: 'sub' }, h('summary', {}, 'Input schema (advanced)'),
      field('Input JSON Schema', inputSchema, 'What a run of this runbook takes as input; the Runs form prefills from it. {"input": "name"} values in the steps read these inputs.')),
    errors,
    h('div', { class: 'form-actions' }, save, dirty));

  // The test panel
  const testInput = h('textarea', { id: 'rb-test-input', name: 'test_input', rows: '4', class: 'mono', spellcheck: 'false', autocomplete: 'off' });
  let testInputTouched = false;
  testInput.addEventListener('input', () => {
    testInputTouched = true;
  });
  const test = h('button', { type: 'submit', class: 'btn btn-primary', id: 'rb-test' }, 'Test');
  const testResult = h('div', { id: 'rb-test-result', 'aria-live': 'polite' });
  const testForm = h('form', { class: 'form', 'aria-label': 'Test the runbook' },
    h('p', { class: 'hint' }, 'Runs the runbook once, now, in the browser engine (up to about 25 s), and shows each step and the items it extracted. Unsaved changes are saved first. Nothing is stored as a run.'),
    field('Input (JSON object)', testInput, 'Values for {"input": "name"} references: strings, numbers or booleans.'),
    h('div', { class: 'form-actions' }, test));

  page.append(
    head,
    h('p', {}, h('a', { href: '#/studio' }, '← All runbooks')),
    h('div', { class: 'studio-stack studio-split' }, section('Runbook', form), section('Test', testForm, testResult)),
  );

  // ---- behaviour

  const bodyText = () => JSON.stringify([name.value, description.value, published.checked, steps.value, inputSchema.value]);
  // What the shown test result was made from; when the runbook or the input differ, it is stale.
  let tested = null;
  const markStale = () => {
    const stale = tested !== null && tested !== bodyText() + testInput.value;
    testResult.classList.toggle('stale', stale);
    const note = testResult.querySelector('.stale-note');
    if (note) note.hidden = !stale;
  };
  const markDirty = () => {
    dirty.textContent = saved !== null && bodyText() !== saved ? 'Unsaved changes' : '';
    markStale();
  };
  for (const el of [name, description, steps, inputSchema, testInput]) el.addEventListener('input', markDirty);
  published.addEventListener('change', markDirty);
  // A JSON edit rebuilds the forms (when it parses), a moment after typing stops.
  let jsonTimer;
  const applyStepsJson = () => {
    jsonTimer = undefined;
    try {
      const list = parseSteps();
      if (!Array.isArray(list)) throw new Error('not a JSON array');
      forms.set(list);
      steps.removeAttribute('aria-invalid');
      afterStepsChange(false);
    } catch (err) {
      steps.setAttribute('aria-invalid', 'true');
      forms.setInvalid(err.message);
    }
  };
  steps.addEventListener('input', () => {
    clearTimeout(jsonTimer);
    jsonTimer = setTimeout(applyStepsJson, 250);
  });
  /**
   * Save and Test apply an edit still waiting for its rebuild first: a rebuild after the answer
   * would replace the step cards and wipe the problems just shown in them.
   */
  const flushStepsJson = () => {
    if (jsonTimer === undefined) return;
    clearTimeout(jsonTimer);
    applyStepsJson();
  };

  /** The Run input fields: one per input the steps read, described by the author. */
  function renderInputs() {
    let schema;
    try {
      schema = JSON.parse(inputSchema.value || '{}') ?? {};
    } catch {
      clear(inputsHost).append(h('p', { class: 'hint' }, 'The input schema (advanced) is not valid JSON; fix it there.'));
      return;
    }
    const used = referencedInputs(forms.get());
    if (!used.size) {
      clear(inputsHost).append(h('p', { class: 'hint', id: 'rb-inputs-none' }, 'The steps read no input: a run of this runbook takes {}. Choose "Run input" as a goto URL or fill value to take one.'));
      return;
    }
    const props = schema.properties ?? {};
    const write = (nameOf, key, value) => {
      let cur;
      try {
        cur = JSON.parse(inputSchema.value || '{}') ?? {};
      } catch {
        return;
      }
      cur.type ??= 'object';
      cur.properties ??= {};
      const p = { ...(cur.properties[nameOf] ?? {}) };
      if (value === '') delete p[key];
      else p[key] = key === 'examples' ? [value] : value;
      if (Object.keys(p).length) cur.properties[nameOf] = p;
      else delete cur.properties[nameOf];
      inputSchema.value = JSON.stringify(cur, null, 2);
      markDirty();
    };
    clear(inputsHost).append(h('table', { class: 'data inputs-table' },
      h('caption', { class: 'sr-only' }, 'Run input'),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Input'), h('th', { scope: 'col' }, 'Used as'), h('th', { scope: 'col' }, 'Description'), h('th', { scope: 'col' }, 'Example'))),
      h('tbody', {}, [...used].map(([nm, use]) => {
        const p = props[nm] ?? {};
        const descIn = h('input', { type: 'text', id: `rb-input-${nm}-description`, value: p.description ?? '', 'aria-label': `Description of input ${nm}`, placeholder: use.url ? 'The page to start on' : 'What to type' });
        const ex = Array.isArray(p.examples) ? p.examples[0] : p.example;
        const exIn = h('input', { type: 'text', id: `rb-input-${nm}-example`, value: ex ?? '', 'aria-label': `Example of input ${nm}`, placeholder: use.url ? 'https://… a page this runbook works on' : '' });
        descIn.addEventListener('input', () => write(nm, 'description', descIn.value));
        exIn.addEventListener('input', () => {
          write(nm, 'examples', exIn.value);
          // An example that works is what the test starts from, unless the test input was edited.
          if (!testInputTouched) {
            const cur = testInputValue();
            cur[nm] = exIn.value;
            testInput.value = JSON.stringify(cur, null, 2);
            linkStartRun();
          }
        });
        return h('tr', {},
          h('td', {}, h('code', {}, nm), ' ', badge('required', 'queued')),
          h('td', {}, use.url ? 'URL the runbook opens' : `typed into ${use.fills.join(', ')}`),
          h('td', {}, descIn), h('td', {}, exIn));
      }))));
  }

  /** After the steps changed (in a form or in JSON): inputs, test input, and stale marks follow. */
  function afterStepsChange(fromForm = true) {
    renderInputs();
    if (!testInputTouched) {
      let schema;
      try {
        schema = JSON.parse(inputSchema.value || '{}') ?? {};
      } catch {
        schema = {};
      }
      pageUrl();
      testInput.value = JSON.stringify(testInputFor(forms.get(), schema, testInputValue(), lastPageUrl), null, 2);
      linkStartRun();
    }
    if (fromForm) steps.removeAttribute('aria-invalid');
    markDirty();
  }

  const showHelp = () => {
    const s = catalogue.find((c) => actionOf(c) === actionSel.value);
    actionHelp.textContent = s ? `${ACTION_HELP[actionOf(s)] ?? ''} Fields: ${fieldList(s)}.` : '';
  };
  actionSel.addEventListener('change', showHelp);

  const parseSteps = () => {
    const text = steps.value.trim();
    if (!text) return [];
    return JSON.parse(text);
  };
  addStep.addEventListener('click', () => {
    const s = catalogue.find((c) => actionOf(c) === actionSel.value);
    if (!s) return;
    let list;
    try {
      list = parseSteps();
    } catch (err) {
      showInlineErrors([{ path: 'steps', message: `not valid JSON (${err.message}); fix it before adding a step` }]);
      steps.focus();
      return;
    }
    if (!Array.isArray(list)) {
      showInlineErrors([{ path: 'steps', message: 'must be a JSON array of steps' }]);
      steps.focus();
      return;
    }
    list.push(blankStep(actionOf(s)));
    forms.set(list);
    setSteps(JSON.stringify(list, null, 2));
    afterStepsChange();
    clear(errors);
    showNotice(`Added a ${actionSel.value} step (step ${list.length}); fill it in above.`);
    document.getElementById(`rb-step-${list.length}-action`)?.focus();
  });
  format.addEventListener('click', () => {
    try {
      setSteps(JSON.stringify(parseSteps(), null, 2));
      clear(errors);
    } catch (err) {
      showInlineErrors([{ path: 'steps', message: `not valid JSON: ${err.message}` }]);
    }
  });

  /** Validation problems next to the form: path (with the step's action when known) and message. */
  function showInlineErrors(details, heading = 'Not saved') {
    let list = null;
    try {
      list = parseSteps();
    } catch {
      list = null;
    }
    // A step's problem is shown once, in that step's card; the summary only says where to look.
    const byStep = new Map();
    const rest = [];
    for (const d of details) {
      const m = /^(?:body\.)?steps\.(\d+)(?:\.(.*))?$/.exec(String(d.path ?? ''));
      if (m && list && Number(m[1]) < list.length) {
        const i = Number(m[1]);
        byStep.set(i, [...(byStep.get(i) ?? []), `${m[2] ? `${m[2].replace(/\.(\d+)(?=\.|$)/g, (_, k) => `[${k}]`)}: ` : ''}${d.message ?? ''}`]);
      } else rest.push(d);
    }
    forms.showErrors(byStep);
    const stepsWith = [...byStep.keys()].map((i) => i + 1);
    clear(errors).append(
      h('div', { class: 'error-box', role: 'alert' },
        h('strong', {}, `${heading}: ${details.length === 1 ? 'one problem' : `${details.length} problems`} to fix`),
        stepsWith.length ? h('p', {}, `See ${stepsWith.length === 1 ? `step ${stepsWith[0]}` : `steps ${stepsWith.join(', ')}`} above.`) : null,
        rest.length
          ? h('ul', { class: 'detail-list' },
            rest.map((d) => {
              const where = humanPath(d.path, list);
              return h('li', { title: d.path ?? '' }, where ? h('strong', {}, `${where[0].toUpperCase()}${where.slice(1)}: `) : null, d.message ?? '');
            }))
          : null));
  }

  /** The request body from the form, or null (with the problem shown) when it is not valid JSON. */
  function buildBody() {
    const problems = [];
    let stepList;
    let schema = DEFAULT_INPUT_SCHEMA;
    try {
      stepList = parseSteps();
    } catch (err) {
      problems.push({ path: 'steps', message: `not valid JSON: ${err.message}` });
    }
    if (inputSchema.value.trim()) {
      try {
        schema = JSON.parse(inputSchema.value);
      } catch (err) {
        problems.push({ path: 'input_schema', message: `not valid JSON: ${err.message}` });
      }
    }
    if (problems.length) {
      showInlineErrors(problems);
      return null;
    }
    forms.showErrors(new Map());
    return { name: name.value.trim(), description: description.value, input_schema: schema, steps: stepList, published: published.checked };
  }

  /** Show a runbook; `sent` (the body text a save sent) keeps edits made while it was saving. */
  function show(rb, sent = null) {
    id = rb.id;
    title.textContent = rb.name;
    if (sent === null || sent === bodyText()) {
      name.value = rb.name;
      description.value = rb.description ?? '';
      published.checked = !!rb.published;
      setSteps(JSON.stringify(rb.steps ?? [], null, 2));
      forms.set(rb.steps ?? []);
      inputSchema.value = JSON.stringify(rb.input_schema ?? DEFAULT_INPUT_SCHEMA, null, 2);
      saved = bodyText();
    } else saved = sent;
    save.textContent = 'Save';
    remove.hidden = false;
    startRun.hidden = !rb.published;
    afterStepsChange(false);
    linkStartRun();
  }

  /** "Start a run" opens the Runs form on this runbook with the test input filled in. */
  function linkStartRun() {
    if (!id) return;
    const input = testInputValue();
    startRun.setAttribute('href', `#/runs?scraper=${encodeURIComponent(id)}${Object.keys(input).length ? `&input=${encodeURIComponent(JSON.stringify(input))}` : ''}`);
  }
  testInput.addEventListener('input', linkStartRun);
  testInput.addEventListener('change', linkStartRun);

  /** Save (create or replace); true when saved. A 400 lists its details next to the form. */
  async function doSave() {
    flushStepsJson();
    const body = buildBody();
    if (!body) throw Object.assign(new Error('The runbook is not valid JSON; see the form'), { shown: true });
    clear(errors);
    const sent = bodyText();
    try {
      const rb = id ? await put(`/v1/runbooks/${seg(id)}`, body) : await post('/v1/runbooks', body);
      const created = !id;
      hideError();
      show(rb, sent);
      if (created) {
        // The page becomes this runbook's page without a re-render (the test panel stays).
        history.replaceState(null, '', `#/studio/${encodeURIComponent(rb.id)}`);
      }
      showNotice(`Runbook ${rb.name} ${created ? 'created' : 'saved'}`);
      return true;
    } catch (err) {
      // Validation problems show once, next to the form (not in the banner as well).
      if (err instanceof ApiError && err.details?.length) {
        showInlineErrors(err.details);
        err.shown = true;
      }
      throw err;
    }
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    busy([save, test], async () => {
      try {
        await doSave();
      } catch (err) {
        if (err.shown) return;
        throw err;
      }
    }, 'Save runbook');
  });

  remove.addEventListener('click', () => {
    if (!id || !confirm(`Delete the runbook "${name.value}"? Runs already made keep their results.`)) return;
    busy(remove, async () => {
      await del(`/v1/runbooks/${seg(id)}`);
      showNotice(`Runbook ${name.value} deleted`);
      ctx.navigate('#/studio');
    }, 'Delete runbook');
  });

  testForm.addEventListener('submit', (e) => {
    e.preventDefault();
    let input;
    try {
      input = testInput.value.trim() ? JSON.parse(testInput.value) : {};
    } catch (err) {
      showError(new Error(`The test input is not valid JSON: ${err.message}`), 'Test');
      testInput.focus();
      return;
    }
    if (!input || typeof input !== 'object' || Array.isArray(input)) {
      showError(new Error('The test input must be a JSON object'), 'Test');
      testInput.focus();
      return;
    }
    busy([test, save], async () => {
      if (!id || bodyText() !== saved) {
        try {
          await doSave();
        } catch (err) {
          if (err.shown) return;
          throw err;
        }
      }
      clear(testResult).append(h('p', { class: 'loading' }, 'Testing… ', h('span', { class: 'spinner', 'aria-hidden': 'true' })));
      try {
        const res = await post(`/v1/runbooks/${seg(id)}/test`, { input }, { signal: ctx.signal });
        renderTest(testResult, res, forms.get());
      } catch (err) {
        if (isAbort(err)) return;
        // Shown here, once (not in the banner as well).
        clear(testResult).append(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'The test did not run: '), err.message ?? String(err), err.code ? h('span', { class: 'hint' }, ` (${err.code})`) : null));
      } finally {
        tested = bodyText() + testInput.value;
        testResult.prepend(h('p', { class: 'stale-note', id: 'rb-stale-note', hidden: true }, 'The runbook or its input changed since this test: this result is out of date. Test again to refresh it.'));
        markStale();
      }
    }, 'Test runbook');
  });

  // ---- load

  try {
    const [st, rb] = await Promise.all([
      get('/dashboard/api/studio', {}, { signal: ctx.signal }),
      id ? get(`/v1/runbooks/${seg(id)}`, {}, { signal: ctx.signal }) : Promise.resolve(null),
    ]);
    catalogue = (st.steps ?? []).filter(actionOf);
    clear(actionSel).append(...catalogue.map((s) => h('option', { value: actionOf(s) }, actionOf(s))));
    showHelp();
    if (rb) show(rb);
    else {
      // A new runbook starts on no made-up site: the author gives the page it works on.
      const start = [blankStep('goto'), { action: 'extract', fields: { title: { selector: 'h1' } } }];
      setSteps(JSON.stringify(start, null, 2));
      forms.set(start);
      inputSchema.value = JSON.stringify(DEFAULT_INPUT_SCHEMA, null, 2);
      afterStepsChange(false);
      testInput.value = '{}';
      name.focus();
    }
  } catch (err) {
    if (isAbort(err)) return;
    showError(err, 'Runbook');
    form.replaceChildren(h('p', { class: 'load-error' }, `Could not load ${id ? `runbook ${id}` : 'the studio'}: ${err.message ?? err}`));
    test.disabled = true;
  }
}

/** Completions for the steps editor: action names, and the fields of the step being edited. */
function suggestFor(c, catalogue) {
  if (c.kind === 'value' && c.key === 'action')
    return catalogue.map((s) => ({ label: actionOf(s), detail: ACTION_HELP[actionOf(s)]?.split('.')[0] ?? '' }));
  if (c.kind !== 'key') return [];
  const action = /"action"\s*:\s*"([\w-]+)"/.exec(c.object)?.[1];
  const s = catalogue.find((x) => actionOf(x) === action);
  if (!s) return [{ label: 'action', detail: 'the step\'s action: goto, click, fill, …' }];
  const present = new Set([...c.object.matchAll(/"([\w-]+)"\s*:/g)].map((m) => m[1]));
  return Object.entries(s.properties ?? {})
    .filter(([k]) => k !== 'action' && !present.has(k))
    .map(([k, v]) => ({ label: k, detail: `${(s.required ?? []).includes(k) ? 'required' : 'optional'}${v.type ? `, ${v.type}` : ''}` }));
}

/** The test result: status, where it failed, step log (errors and warnings at their step), items and screenshots. */
function renderTest(host, res, stepList = []) {
  const statusKind = { succeeded: 'succeeded', failed: 'failed', blocked: 'blocked', stopped: 'cancelled' }[res.status] ?? 'queued';
  const log = table(
    [
      { label: '#', render: (l) => String((l.index ?? 0) + 1) },
      { label: 'Action', render: (l) => h('code', {}, l.action) },
      { label: 'OK', render: (l) => (l.ok ? badge('ok', 'succeeded') : badge('failed', 'failed')) },
      { label: 'ms', render: (l) => String(l.ms ?? '') },
      { label: 'URL', class: 'data-col', render: (l) => (l.url ? extLink(l.url, truncate(l.url, 60)) : '—') },
      {
        label: 'Detail / error',
        class: 'data-col',
        render: (l) => [
          l.error ? h('span', { class: 'load-error step-error' }, `${l.error.code}: ${l.error.message}`) : (l.detail ?? ''),
          ...(l.warnings ?? []).map((w) => h('div', { class: 'warn-line' }, h('span', { 'aria-hidden': 'true' }, '⚠ '), h('span', { class: 'sr-only' }, 'Warning: '), w)),
        ],
      },
    ],
    { caption: 'Step log', empty: 'No step ran.' },
  );
  log.add(res.log ?? []);
  const items = res.items ?? [];
  const warnings = (res.log ?? []).reduce((n, l) => n + (l.warnings?.length ?? 0), 0);
  const failedAt = (res.log ?? []).find((l) => l.ok === false);
  // A field that found nothing keeps its column (empty) even when no item was extracted.
  const lastExtract = [...stepList].reverse().find((st) => st?.action === 'extract');
  const emptyColumns = !items.length && lastExtract?.fields ? Object.keys(lastExtract.fields) : [];
  const itemTable = itemsView({ caption: 'Extracted items', empty: 'No items were extracted.' });
  itemTable.update(items);
  const shots = (res.screenshots ?? []).filter((s) => typeof s.png === 'string' && /^[A-Za-z0-9+/=]+$/.test(s.png));
  const stats = res.stats ?? {};
  clear(host).append(
    h('h3', {}, 'Result'),
    dl([
      ['Status', h('span', { id: 'rb-test-status' }, badge(res.status ?? 'unknown', statusKind))],
      ['Pages', String(res.pages_done ?? 0)],
      ['Items', String(items.length)],
      stats.requests !== undefined ? ['Requests', `${stats.requests} · ${stats.blocked_requests ?? 0} blocked · ${stats.robots_skipped ?? 0} skipped by robots.txt`] : null,
    ]),
    // The error itself is shown once, at its step in the log; here only where to look.
    res.error && failedAt
      ? h('p', { class: 'error-box', role: 'alert', id: 'rb-test-failed-at' }, h('strong', {}, `Runbook ${res.status} at step ${(failedAt.index ?? 0) + 1} (${failedAt.action})`), ': see the step log.')
      : res.error
        ? h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, `Runbook ${res.status}: `), res.error.message ?? '', res.error.code ? h('span', { class: 'hint' }, ` (${res.error.code})`) : null)
        : null,
    warnings ? h('p', { class: 'warn-box', id: 'rb-test-warnings' }, `${warnings === 1 ? '1 warning' : `${warnings} warnings`}: a selector found nothing (see the step log); its column is empty.`) : null,
    h('h3', {}, 'Step log'),
    h('div', { id: 'rb-steplog' }, log.el),
    h('h3', {}, `Items (${items.length})`),
    h('div', { id: 'rb-items' }, emptyColumns.length
      ? h('table', { class: 'data', id: 'rb-empty-columns' }, h('caption', {}, 'Extracted items (none)'),
        h('thead', {}, h('tr', {}, emptyColumns.map((c) => h('th', { scope: 'col' }, c)))),
        h('tbody', {}, h('tr', { class: 'empty' }, h('td', { colspan: String(emptyColumns.length) }, 'No item was extracted.'))))
      : itemTable.el),
    items.length ? h('details', { class: 'sub' }, h('summary', {}, 'Items as JSON'), jsonView(items, { label: 'Extracted items' })) : null,
    shots.length
      ? [h('h3', {}, 'Screenshots'), h('div', { class: 'shots' }, shots.map((s) => h('figure', {}, h('img', { src: `data:image/png;base64,${s.png}`, alt: `Screenshot ${s.name} of ${s.url}` }), h('figcaption', { class: 'hint' }, s.name, ' · ', truncate(s.url, 60)))))]
      : null,
  );
}
