// Runs: list (live while runs are unfinished), start a run from a form built from the scraper's
// input schema, run detail with long-poll, results readable while running, exports, cancel.
import { h, clear, field, select, table, dl, badge, time, fmtBytes, truncate, sleep, isAbort } from '../lib/dom.js';
import { download, get, post, seg } from '../lib/api.js';
import { formErrors } from '../lib/form-errors.js';
import { csvColumnsDialog, httpErrorChip, httpErrors, httpErrorsOf, liveLoop, runLogSection, statusesOf } from '../lib/run-extras.js';
import { busy, groupNav, hideNotice, idChip, jsonView, pageHeader, pager, plural, section, showError, showNotice } from '../lib/ui.js';
import { fieldLabel, itemsView, tabbed } from '../lib/results.js';
export { httpErrorsOf };
import { hasFields, schemaForm } from '../lib/schema-form.js';
import { ownDeliveries } from './webhooks.js';
import { attachRunFormPickers } from '../lib/selector-picker.js';
import { failureWords } from '../lib/words.js';
import { attachCrawlScope } from '../lib/crawl-scope.js';
import { TYPED_KINDS } from '../lib/typed-view.js';

export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'timed_out', 'cancelled', 'blocked'];
const TERMINAL = new Set(['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked']);

/** An example input from a JSON Schema: required properties, with defaults and sensible samples. */
export function exampleFor(schema, name = '', depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 4) return null;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const out = {};
      const props = schema.properties ?? {};
      for (const k of schema.required ?? []) out[k] = exampleFor(props[k], k, depth + 1);
      if (!Object.keys(props).length && schema.additionalProperties && typeof schema.additionalProperties === 'object')
        out[name === 'fields' ? 'title' : 'example'] = exampleFor(schema.additionalProperties, 'value', depth + 1);
      return out;
    }
    case 'array':
      return schema.items ? [exampleFor(schema.items, name, depth + 1)] : [];
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'uri' || /url$/i.test(name)) return 'https://example.com/';
      if (name === 'selector') return 'h1';
      return '';
    default:
      return null;
  }
}

export const statusBadge = (s) => badge(s.replace(/_/g, ' '), s);

/** {"http": 5, "browser": 1} -> "http × 5, browser × 1". */
const fmtEngines = (e) =>
  Array.isArray(e) ? e.join(', ') : typeof e === 'object' ? Object.entries(e).map(([k, v]) => `${k} × ${v}`).join(', ') : String(e);

/** The URL a run works on: input.url / start_url, or the first of urls / start_urls. */
export function runTarget(input) {
  const i = input ?? {};
  for (const k of ['url', 'start_url']) if (typeof i[k] === 'string' && i[k]) return i[k];
  for (const k of ['urls', 'start_urls']) if (Array.isArray(i[k]) && typeof i[k][0] === 'string') return i[k].length > 1 ? `${i[k][0]} (+${i[k].length - 1} more)` : i[k][0];
  return null;
}

/**
 * Scraper and runbook names by id, read once per page: /v1/scrapers (built-ins and published
 * runbooks) and, for admins, the studio's runbook list (drafts too). Failures leave ids shown.
 */
export async function scraperNames(signal) {
  const names = new Map();
  const [sc, st] = await Promise.allSettled([get('/v1/scrapers', {}, { signal, quiet: true }), get('/dashboard/api/studio', {}, { signal, quiet: true })]);
  if (st.status === 'fulfilled') for (const r of st.value.runbooks ?? []) names.set(r.id, r.name);
  if (sc.status === 'fulfilled') for (const s of sc.value.data ?? []) names.set(s.scraper_id, s.name ?? s.scraper_id);
  return { names, scrapers: sc.status === 'fulfilled' ? sc.value.data ?? [] : null, error: sc.status === 'rejected' ? sc.reason : null };
}

export const fmtDuration = (s) => {
  if (s < 1) return `${Math.max(0, Math.round(s * 1000))} ms`;
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
};

/** How long a run took (or has been running), from started_at (or created_at) to finished_at (or now). */
export function runDuration(r, now = Date.now()) {
  const from = Date.parse(r.started_at ?? r.created_at ?? '');
  if (Number.isNaN(from)) return '—';
  if (!r.started_at && !r.finished_at) return 'not started';
  const to = r.finished_at ? Date.parse(r.finished_at) : now;
  return `${fmtDuration((to - from) / 1000)}${r.finished_at ? '' : ' so far'}`;
}

/** Back-off for polling while something is unfinished: 2 s, growing to 15 s while nothing changes. */
export function backoff(min = 2000, max = 15_000) {
  let d = min;
  return { next: () => (d = Math.min(max, Math.round(d * 1.5))), reset: () => (d = min), get ms() { return d; } };
}

export async function runsList(page, ctx) {
  const status = ctx.query.get('status') ?? '';
  let names = new Map();
  const t = table(
    [
      {
        label: 'Target',
        class: 'wide',
        render: (r) => h('div', { class: 'name-id' },
          h('a', { href: `#/runs/${encodeURIComponent(r.id)}`, class: 'break' }, truncate(runTarget(r.input) ?? names.get(r.scraper_id) ?? r.id, 80)),
          idChip(r.id, 'run id')),
      },
      { label: 'Scraper', render: (r) => h('span', { title: r.scraper_id }, names.get(r.scraper_id) ?? r.scraper_id) },
      { label: 'Status', render: (r) => h('span', { class: 'run-status' }, statusBadge(r.status), TERMINAL.has(r.status) ? null : h('span', { class: 'spinner', 'aria-hidden': 'true' }), httpErrorChip(httpErrors.get(r.id))) },
      { label: 'Pages', render: (r) => `${r.progress?.pages_done ?? 0}${r.progress?.pages_total ? ` / ${r.progress.pages_total}` : ''}` },
      { label: 'Items', render: (r) => String(r.progress?.items ?? 0) },
      { label: 'Duration', render: (r) => runDuration(r) },
      { label: 'Created', render: (r) => time(r.created_at) },
    ],
    {
      caption: 'Runs',
      empty: status ? h('span', {}, `No ${status.replace(/_/g, ' ')} runs. `, h('a', { href: '#/runs' }, 'Show all runs')) : 'No runs yet. Start one with "New run".',
    },
  );
  let shown = [];
  // Runs whose page answered an HTTP error (read from their first results), by id: the list marks
  // them as the run page does.
  const httpErrors = new Map();
  const p = pager((cursor) => get('/v1/runs', { cursor, status: status || undefined, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) {
      t.reset();
      shown = [];
    }
    shown.push(...rows);
    t.add(rows);
    markHttpErrors(rows);
  });
  const markHttpErrors = async (rows) => {
    const found = await httpErrorsOf(rows, httpErrors, ctx.signal);
    if (!found) return;
    // Redraw the rows that now have a mark (the table's row for a run holds its link).
    for (const r of shown) {
      const a = t.tbody.querySelector(`a[href="#/runs/${CSS.escape(encodeURIComponent(r.id))}"]`);
      if (a && httpErrors.get(r.id)) t.replace(a, r);
    }
  };

  const form = startRunForm(ctx);
  const statusSel = select([{ value: '', label: 'All statuses' }, ...RUN_STATUSES.map((s) => ({ value: s, label: s.replace(/_/g, ' ') }))], status, { id: 'runs-status', 'aria-label': 'Filter by status' });
  statusSel.addEventListener('change', () => ctx.navigate(statusSel.value ? `#/runs?status=${statusSel.value}` : '#/runs'));
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Runs'));
  const liveNote = h('span', { class: 'hint', id: 'runs-live', 'aria-live': 'off' });

  // The list comes first; the new-run form opens above it with one click (or from a link:
  // #/runs?new=1, #/runs?scraper=… from Studio, #/runs?clone=run_… from a run's page).
  const open = ctx.query.has('new') || ctx.query.has('scraper') || ctx.query.has('clone');
  const newRun = h('button', { type: 'button', class: 'btn btn-primary', id: 'runs-new', 'aria-expanded': String(open), 'aria-controls': 'new-run' }, 'New run');
  const formCard = h('section', { class: 'card new-run', id: 'new-run', 'aria-labelledby': 'new-run-title', hidden: !open },
    h('div', { class: 'card-head' }, h('h2', { id: 'new-run-title' }, 'New run'), h('button', { type: 'button', class: 'btn btn-small', id: 'new-run-close' }, 'Close')),
    form.el);
  const toggle = (show) => {
    formCard.hidden = !show;
    newRun.setAttribute('aria-expanded', String(show));
    if (show) {
      formCard.scrollIntoView({ block: 'nearest' });
      form.focus();
    } else newRun.focus();
  };
  newRun.addEventListener('click', () => toggle(formCard.hidden));
  formCard.querySelector('#new-run-close').addEventListener('click', () => toggle(false));

  page.append(
    pageHeader('Runs', statusSel, refresh, newRun),
    groupNav('runs', 'runs'),
    formCard,
    section('Recent runs', liveNote, t.el, p.el),
  );
  const loaded = await scraperNames(ctx.signal).catch(() => ({ names: new Map(), scrapers: null, error: null }));
  names = loaded.names;
  await Promise.all([busy(refresh, () => p.first(), 'Runs'), form.load(loaded)]);
  // Focus the form once it is loaded, unless the reader has already started on it (or anything
  // else) while the list and scrapers loaded: taking focus then sends their typing elsewhere.
  const untouched = !document.activeElement || document.activeElement === document.body;
  if (open && untouched) form.focus();
  // Live: the first page is read again every 2 s while the page is visible, so runs started
  // elsewhere (the API, a job, MCP) appear and finished ones stop showing "running". Rows are
  // redrawn only when something changed, and only while the reader has not loaded more pages.
  let last = JSON.stringify(shown.map((r) => [r.id, r.status, r.progress, r.finished_at]));
  await liveLoop(ctx.signal, 2000, async () => {
    if (shown.length > 25) return;
    const next = await get('/v1/runs', { status: status || undefined, limit: 25 }, { signal: ctx.signal });
    const rows = next.data ?? [];
    const now = JSON.stringify(rows.map((r) => [r.id, r.status, r.progress, r.finished_at]));
    const unfinished = rows.some((r) => !TERMINAL.has(r.status));
    liveNote.textContent = unfinished ? 'Live: updated every 2 s.' : '';
    // Durations of unfinished runs grow: redraw those even when nothing else changed.
    if (now === last && !unfinished) return;
    last = now;
    t.reset();
    shown = [...rows];
    t.add(rows);
    markHttpErrors(rows);
  });
}

/**
 * The "Start a run" form: a scraper, its input as a form built from the scraper's input_schema
 * with a JSON tab kept in sync both ways, an optional webhook and browser profile.
 */
function startRunForm(ctx) {
  const scraperSel = h('select', { id: 'run-scraper', name: 'scraper_id', required: true }, h('option', { value: '' }, 'Loading scrapers…'));
  const desc = h('small', { class: 'hint', id: 'run-scraper-desc' });
  scraperSel.setAttribute('aria-describedby', desc.id);
  const input = h('textarea', { id: 'run-input', name: 'input', rows: '10', class: 'mono', spellcheck: 'false', 'aria-label': 'Input (JSON)' });
  const jsonNote = h('p', { class: 'hint', id: 'run-input-note', 'aria-live': 'polite' }, 'The run input as JSON; the Form tab follows it.');
  input.setAttribute('aria-describedby', jsonNote.id);
  const formHost = h('div', { id: 'run-form-fields' });
  const inputTabs = tabbed('Run input', [['Form', formHost], ['JSON', h('div', {}, input, jsonNote)]]);
  const webhook = h('input', { type: 'url', id: 'run-webhook', name: 'webhook_url', placeholder: 'https://… (optional)' });
  const profileSel = h('select', { id: 'run-profile', name: 'browser_profile' }, h('option', { value: '' }, 'None (default rendering)'));
  const profileHint = h('small', { class: 'hint', id: 'run-profile-hint' },
    'Optional: how browser-engine pages render (viewport, locale, time zone, colour scheme). The User-Agent still identifies Gleaner. Manage them in ',
    h('a', { href: '#/settings/profiles' }, 'Settings → Browser profiles'), '.');
  profileSel.setAttribute('aria-describedby', profileHint.id);
  const start = h('button', { type: 'submit', class: 'btn btn-primary', id: 'run-start' }, 'Start run');
  let scrapers = [];
  let errors = null;
  let clonedProfile = '';
  let sform = null;
  // The JSON text the form last wrote: when the JSON tab holds anything else, it was edited
  // there after the form and wins.
  let lastWritten = '';

  const syncJson = () => {
    try {
      input.value = lastWritten = JSON.stringify(sform ? sform.get() : {}, null, 2);
      input.removeAttribute('aria-invalid');
      jsonNote.textContent = 'The run input as JSON; the Form tab follows it.';
    } catch (err) {
      jsonNote.textContent = `The form has a problem: ${err.message}`;
    }
  };
  let jsonTimer;
  input.addEventListener('input', () => {
    clearTimeout(jsonTimer);
    jsonTimer = setTimeout(() => {
      try {
        const v = JSON.parse(input.value || '{}');
        if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the input must be a JSON object');
        sform?.set(v);
        lastWritten = input.value;
        input.removeAttribute('aria-invalid');
        jsonNote.textContent = 'The run input as JSON; the Form tab follows it.';
      } catch (err) {
        input.setAttribute('aria-invalid', 'true');
        jsonNote.textContent = `Not valid JSON yet (${err.message}); the form keeps its last values.`;
      }
    }, 250);
  });

  const pick = () => {
    const s = scrapers.find((x) => x.scraper_id === scraperSel.value);
    desc.textContent = s ? `${s.description ?? ''}${s.engine ? ` (engine: ${s.engine})` : ''}` : '';
    const schema = s?.input_schema ?? { type: 'object' };
    if (hasFields(schema)) {
      sform = schemaForm(schema, { idPrefix: 'run-in', onChange: syncJson });
      const example = exampleFor(schema) ?? {};
      // Required URLs start empty (the placeholder shows the shape); other examples fill in.
      for (const [k, v] of Object.entries(example)) if (typeof v === 'string' && /^https:\/\/example\.com\/?$/.test(v)) delete example[k];
      sform.set(example);
      clear(formHost).append(sform.el);
      attachRunFormPickers(formHost); // Pick buttons on selector inputs (lib/selector-picker.js)
      attachCrawlScope(formHost); // what a site crawl will cover, under its start URL
      inputTabs.select(0);
    } else {
      sform = null;
      clear(formHost).append(h('p', { class: 'hint' }, 'This scraper does not describe its input fields: write its input in the JSON tab.'));
      inputTabs.select(1);
    }
    syncJson();
  };
  scraperSel.addEventListener('change', pick);

  const el = h('form', { class: 'form', 'aria-label': 'Start a run', novalidate: true },
    h('div', { class: 'field' }, h('label', { for: scraperSel.id }, 'Scraper'), scraperSel, desc),
    h('div', { class: 'field' }, h('span', { class: 'label', id: 'run-input-label' }, 'Input'), inputTabs.el),
    h('div', { class: 'row' },
      field('Webhook URL', webhook, 'Optional: receives run.completed when the run ends.'),
      h('div', { class: 'field' }, h('label', { for: profileSel.id }, 'Browser profile'), profileSel, profileHint)),
    h('div', { class: 'form-actions' }, start));
  // Errors of a submit show here, above the button, and under the fields they name.
  errors = formErrors(formHost, { prefix: 'input.' });
  el.insertBefore(errors.el, el.lastElementChild);

  el.addEventListener('submit', (e) => {
    errors.clear();
    e.preventDefault();
    let value;
    try {
      if (input.value !== lastWritten || !sform) {
        value = JSON.parse(input.value || '{}');
        if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error('the input must be a JSON object');
      } else {
        const bad = formHost.querySelector(':invalid');
        if (bad) {
          inputTabs.select(0);
          bad.reportValidity();
          bad.focus();
          return;
        }
        value = sform.get();
      }
    } catch (err) {
      errors.show(new Error(err.path ? `${err.path} ${err.message.slice(err.path.length + 2)}` : `The input is not valid JSON: ${err.message}`), 'Not started');
      if (err.input) {
        inputTabs.select(0);
        err.input.focus();
      } else {
        inputTabs.select(1);
        input.focus();
      }
      return;
    }
    busy(start, async () => {
      const body = { scraper_id: scraperSel.value, input: value };
      if (webhook.value.trim()) body.webhook_url = webhook.value.trim();
      if (profileSel.value) body.browser_profile = profileSel.value;
      let run;
      try {
        run = await post('/v1/runs', body);
      } catch (err) {
        inputTabs.select(0);
        errors.show(err, 'Not started');
        return;
      }
      showNotice(`Run started: ${runTarget(run.input) ?? run.id}`);
      ctx.navigate(`#/runs/${encodeURIComponent(run.id)}`);
    }, 'Start run');
  });

  return {
    el,
    focus: () => scraperSel.focus(),
    async load(loaded) {
      await Promise.all([
        busy(start, async () => {
          if (loaded.error) throw loaded.error;
          scrapers = loaded.scrapers ?? [];
          clear(scraperSel).append(...scrapers.map((s) => h('option', { value: s.scraper_id }, s.name && s.name !== s.scraper_id ? `${s.name} (${s.scraper_id})` : s.scraper_id)));
          if (!scrapers.length) scraperSel.append(h('option', { value: '' }, 'No scrapers'));
          // #/runs?scraper=rbk_… (from Studio) preselects that scraper.
          const wanted = ctx.query.get('scraper');
          if (wanted && scrapers.some((x) => x.scraper_id === wanted)) scraperSel.value = wanted;
          pick();
          // #/runs?clone=run_… (from a run's page): that run's scraper, input, webhook and profile.
          const clone = ctx.query.get('clone');
          if (clone) {
            const src = await get(`/v1/runs/${seg(clone)}`, {}, { signal: ctx.signal });
            if (scrapers.some((x) => x.scraper_id === src.scraper_id)) {
              scraperSel.value = src.scraper_id;
              pick();
            }
            sform?.set(src.input ?? {});
            syncJson();
            if (!sform) input.value = lastWritten = JSON.stringify(src.input ?? {}, null, 2);
            webhook.value = src.webhook_url ?? '';
            clonedProfile = src.browser_profile ?? '';
            jsonNote.textContent = `Cloned from run ${clone}: change what you need and start it.`;
          }
          // …and &input={…} (Studio's "Start a run": the input the runbook was tested with) fills it in.
          const given = wanted && scraperSel.value === wanted ? ctx.query.get('input') : null;
          if (given) {
            try {
              const v = JSON.parse(given);
              if (v && typeof v === 'object' && !Array.isArray(v)) {
                sform?.set(v);
                input.value = JSON.stringify(v, null, 2);
                if (sform) syncJson();
              }
            } catch {
              /* a hand-edited link: the scraper's defaults stay */
            }
          }
        }, 'Scrapers'),
        loadProfiles(profileSel, profileHint, ctx.signal),
      ]);
      if (clonedProfile) profileSel.value = clonedProfile;
    },
  };
}

/** Browser profiles for the run form (admin API): a key without admin just gets "None". */
async function loadProfiles(sel, hint, signal) {
  try {
    const { data } = await get('/dashboard/api/antidetect/profiles', { limit: 200 }, { signal, quiet: true });
    sel.append(...(data ?? []).map((p) => h('option', { value: p.profile_id }, `${p.name} (${p.viewport?.width ?? '?'}×${p.viewport?.height ?? '?'}${p.is_mobile ? ', mobile' : ''}, ${p.locale}, ${p.timezone})`)));
  } catch (err) {
    if (isAbort(err)) return;
    hint.append(` (Profiles could not be loaded: ${err?.message ?? err})`);
  }
}

/** An input value in words: lists joined, objects as "name: value; …" (a css field as its selector), never JSON. */
export function inputWords(v, depth = 0) {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return v.length ? v.map((x) => inputWords(x, depth + 1)).join(', ') : 'none';
  if (depth > 2) return '…';
  return Object.entries(v).map(([k, x]) => `${k}: ${x && typeof x === 'object' && !Array.isArray(x) ? `(${inputWords(x, depth + 1)})` : inputWords(x, depth + 1)}`).join('; ');
}

/** A run's failure in words ("The site did not accept the connection."), what the service said one click away. */
export function failureBox(r) {
  const w = failureWords(r.error);
  return h('div', { class: 'error-box', role: 'alert', id: 'run-error' },
    h('strong', {}, `Run ${r.status.replace(/_/g, ' ')}: `), h('span', { class: 'failure-words' }, w.text),
    w.detail ? h('details', { class: 'failure-detail' }, h('summary', {}, 'Details'), h('p', { class: 'mono break' }, w.detail)) : null);
}

/** Seconds each status poll of a running run waits on the server (the progress refresh period). */
const LIVE_WAIT_S = 2;

/**
 * A run's progress line. Until the total is known, pages show as done / the run's max_pages (its
 * limit). Site crawls also report pages queued and failed and the current rate; an ETA shows only
 * once the total is known (a crawl that keeps finding pages has no honest ETA).
 */
export function fmtProgress(pr, terminal, maxPages) {
  const done = pr.pages_done ?? 0;
  const of = pr.pages_total ? ` / ${pr.pages_total}` : !terminal && maxPages ? ` / ${maxPages} max` : '';
  const parts = [`${done}${of} ${Number(done) === 1 && !of ? 'page' : 'pages'} done`];
  if (pr.pages_queued !== undefined && !terminal) parts.push(`${pr.pages_queued} queued`);
  if (pr.pages_failed !== undefined) parts.push(`${pr.pages_failed} failed`);
  parts.push(plural(pr.items ?? 0, 'item'));
  if (!terminal) {
    if (typeof pr.rate_per_s === 'number') parts.push(`${pr.rate_per_s < 10 ? pr.rate_per_s.toFixed(1) : Math.round(pr.rate_per_s)} pages/s`);
    if (typeof pr.eta_s === 'number' && pr.pages_total) parts.push(`about ${fmtDuration(pr.eta_s)} left`);
  }
  return parts.join(' · ');
}

/** The max_pages a run is limited to: its input's, else the scraper schema's default. */
const maxPagesOf = (run, scraper) => {
  const v = run.input?.max_pages;
  if (typeof v === 'number') return v;
  const d = scraper?.input_schema?.properties?.max_pages?.default;
  return typeof d === 'number' ? d : null;
};

const RESULTS_PAGE = 100;

export async function runDetail(page, ctx) {
  const id = ctx.params.id;
  const info = h('div', { id: 'run-info' }, h('p', { class: 'loading' }, 'Loading…'));
  const warnings = h('div', { id: 'run-warnings' });
  const cancel = h('button', { type: 'button', class: 'btn btn-danger', hidden: true }, 'Cancel run');
  const csv = h('button', { type: 'button', class: 'btn', id: 'run-export-csv', 'aria-haspopup': 'dialog' }, 'Export CSV…');
  const rerun = h('button', { type: 'button', class: 'btn', id: 'run-rerun' }, 'Run again');
  const clone = h('a', { class: 'btn', id: 'run-clone', href: `#/runs?clone=${encodeURIComponent(id)}` }, 'Clone…');
  const ndjson = h('button', { type: 'button', class: 'btn' }, 'Export NDJSON');
  const title = h('h1', { tabindex: '-1', class: 'break' }, 'Run');
  const subtitle = h('p', { class: 'subtitle' }, 'Run ', idChip(id, 'run id'));
  const items = itemsView({ caption: 'Results', empty: 'No items yet.', id: 'run-items', runId: id });
  const emptyNote = h('div', { id: 'run-empty-fields', hidden: true });
  const more = h('button', { type: 'button', class: 'btn', hidden: true }, 'Load more');
  const resultsNote = h('p', { class: 'hint', id: 'run-results-note', 'aria-live': 'polite' });
  const jsonSummary = h('p', { class: 'hint', id: 'run-json-summary', hidden: true });
  const resultsBox = h('div', { id: 'run-results' }, resultsNote, jsonSummary, emptyNote, items.el, h('div', { class: 'pager' }, more));
  let run = null;
  let names = new Map();
  let scraper = null;

  // CSV: choose the columns first (every column ticked = the service's default set).
  csv.addEventListener('click', () => csvColumnsDialog(all, async (columns) => showNotice(`Downloaded ${await download(`/v1/runs/${seg(id)}/results`, { format: 'csv', columns: columns?.join(',') }, `${id}.csv`)}`)));
  // The same scraper, input, webhook and profile, as a new run.
  rerun.addEventListener('click', () => busy(rerun, async () => {
    const body = { scraper_id: run.scraper_id, input: run.input ?? {} };
    if (run.webhook_url) body.webhook_url = run.webhook_url;
    if (run.browser_profile) body.browser_profile = run.browser_profile;
    const r = await post('/v1/runs', body);
    showNotice(`Started again as a new run (${r.id})`);
    ctx.navigate(`#/runs/${encodeURIComponent(r.id)}`);
  }, 'Run again'));
  ndjson.addEventListener('click', () => busy(ndjson, async () => showNotice(`Downloaded ${await download(`/v1/runs/${seg(id)}/results`, { format: 'ndjson' }, `${id}.ndjson`)}`), 'Export'));
  cancel.addEventListener('click', () => {
    if (!confirm(`Cancel this run (${id})?`)) return;
    busy(cancel, async () => {
      show(await post(`/v1/runs/${seg(id)}/cancel`));
      showNotice('Cancel requested');
    }, 'Cancel');
  });

  /** Results: the first pages, reloaded while the run runs; "Load more" reads further. */
  let all = [];
  let cursor = null;
  async function loadResults(reset = true) {
    const pageRes = await get(`/v1/runs/${seg(id)}/results`, { cursor: reset ? undefined : cursor, limit: RESULTS_PAGE }, { signal: ctx.signal });
    all = reset ? pageRes.data ?? [] : [...all, ...(pageRes.data ?? [])];
    cursor = pageRes.next_cursor ?? null;
    more.hidden = !cursor;
    if (cursor && !statuses && run && TERMINAL.has(run.status)) statuses = await statusesOf(id, ctx.signal).catch(() => null);
    items.update(all);
    if (run) show(run);
    showWarnings();
    showJsonSummary();
    showEmptyFields();
  }

  /**
   * Fields that matched nothing: a css-extract field empty (null, "" or []) in every item read, and
   * typed formats no page was of. Said in words, rather than leaving a column of dashes to find.
   */
  function showEmptyFields() {
    const blank = (v) => v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length);
    const fields = Object.keys(run?.input?.fields ?? {});
    const typed = TYPED_KINDS.filter(([k]) => (run?.input?.formats ?? []).includes(k));
    const empty = all.length ? fields.filter((f) => all.every((it) => blank(it.data?.[f]))) : [];
    const none = all.length ? typed.filter(([k]) => all.every((it) => blank(it.data?.[k]))) : [];
    emptyNote.hidden = !empty.length && !none.length;
    if (emptyNote.hidden) return clear(emptyNote);
    const scope = cursor ? 'the items shown' : all.length === 1 ? 'the item' : `all ${all.length} items`;
    clear(emptyNote).append(h('div', { class: 'callout callout-warn', role: 'status' },
      empty.length ? h('p', {}, h('strong', {}, `${empty.length === 1 ? 'A field' : `${empty.length} fields`} matched nothing`), ` in ${scope}: `,
        empty.map((f, i) => [i ? ', ' : '', h('code', {}, f), ` (${run.input.fields[f]?.selector ?? '?'})`]), '. Their selectors found no element on the page: check them (Clone… to change them and run again).') : null,
      none.length ? h('p', {}, h('strong', {}, 'No page was '), none.map(([, l]) => `a${/^[AEIOU]/.test(l) ? 'n' : ''} ${l.toLowerCase()}`).join(' or '), ` in ${scope}: those fields stay empty.`) : null));
  }

  /** Model extraction over the items shown: how many objects, how many failures, the tokens. */
  function showJsonSummary() {
    const withJson = all.filter((it) => it.data?.json !== undefined).length;
    const failed = all.filter((it) => it.data?.json_error).length;
    jsonSummary.hidden = !withJson && !failed;
    if (jsonSummary.hidden) return;
    const tokens = all.reduce((n, it) => n + (it.data?.json_usage?.input_tokens ?? 0) + (it.data?.json_usage?.output_tokens ?? 0), 0);
    jsonSummary.textContent = `Model extraction: ${plural(withJson, 'object')} extracted${failed ? `, ${failed} without one (json_error)` : ''} · ${tokens.toLocaleString('en-US')} model tokens${cursor ? ' for the items shown' : ''}. Open an item to read its extracted object.`;
  }
  more.addEventListener('click', () => busy(more, () => loadResults(false), 'Results'));

  // A finished run with more items than are shown (a crawl): every item's HTTP status, read once.
  let statuses = null;
  const allStatuses = () => (statuses && statuses.length > all.length ? statuses : all);
  function showWarnings() {
    const bad = run ? httpErrors(allStatuses()) : null;
    const shownAll = allStatuses();
    clear(warnings).append(bad
      ? h('div', { class: 'callout callout-warn', role: 'status', id: 'run-http-warning' },
        h('strong', {}, `${bad.count === shownAll.length && shownAll.length === 1 ? 'The page' : plural(bad.count, 'page')} answered with an HTTP error (${bad.text}). `),
        run.status === 'succeeded' ? 'The run itself succeeded (it fetched what it was asked for), but check the results: they may be an error page.' : '')
      : null);
  }

  function show(r) {
    run = r;
    const terminal = TERMINAL.has(r.status);
    cancel.hidden = terminal;
    const s = r.stats ?? {};
    const pr = r.progress ?? {};
    title.textContent = runTarget(r.input) ?? names.get(r.scraper_id) ?? `Run ${id}`;
    clear(subtitle).append(names.get(r.scraper_id) ?? r.scraper_id, ' run ', idChip(id, 'run id'));
    clear(info).append(
      dl([
        ['Status', h('span', { id: 'run-status' }, statusBadge(r.status), terminal ? '' : h('span', { class: 'spinner', 'aria-hidden': 'true' }), httpErrorChip(httpErrors(allStatuses())))],
        ['Scraper', h('span', {}, names.get(r.scraper_id) ?? r.scraper_id, names.has(r.scraper_id) ? h('span', { class: 'hint' }, ' ', idChip(r.scraper_id, 'scraper id')) : null)],
        ['Created', time(r.created_at)],
        ['Duration', runDuration(r)],
        ['Finished', time(r.finished_at)],
        ['Progress', h('span', { id: 'run-progress', 'aria-live': 'polite' }, fmtProgress(pr, terminal, maxPagesOf(r, scraper)))],
        ['Requests', `${plural(s.requests ?? 0, 'request')} · ${fmtBytes(s.bytes ?? 0)} · ${s.blocked_requests ?? 0} blocked · ${s.robots_skipped ?? 0} skipped by robots.txt`],
        r.engines_used && Object.keys(r.engines_used).length ? ['Engines', fmtEngines(r.engines_used)] : null,
        r.stop_reason ? ['Stop reason', String(r.stop_reason).replace(/_/g, ' ')] : null,
        r.webhook_url ? ['Webhook', r.webhook_url] : null,
        r.browser_profile ? ['Browser profile', h('a', { href: `#/settings/profiles?id=${encodeURIComponent(r.browser_profile)}`, class: 'mono' }, r.browser_profile)] : null,
      ]),
      r.error ? failureBox(r) : null,
      h('details', { class: 'sub', id: 'run-input-box' }, h('summary', {}, 'Input'),
        dl(Object.entries(r.input ?? {}).map(([k, v]) => [fieldLabel(k), inputWords(v)])),
        h('details', { class: 'sub' }, h('summary', {}, 'As JSON (for the API)'), jsonView(r.input ?? {}, { label: 'Run input' }))),
    );
    resultsNote.textContent = terminal ? '' : 'The run is still running: results appear here as they are stored.';
    items.setTag(r.input?.change_options?.tag);
    // A finished run with no items says so (and why), never "No items yet".
    items.setEmpty(!terminal ? 'No items yet: they appear here as the run stores them.'
      : r.status === 'succeeded' ? 'This run finished without storing any items.'
        : `No items: the run ${r.status === 'timed_out' ? 'timed out' : r.status === 'blocked' ? 'was blocked' : r.status} before it stored any.`);
    showWarnings();
    if (terminal) hideNotice();
  }

  page.append(
    h('div', { class: 'page-head' }, title, h('div', { class: 'actions' }, cancel, rerun, clone, csv, ndjson)),
    subtitle,
    h('p', {}, h('a', { href: '#/runs' }, '← All runs')),
    warnings,
    section('Status', info),
    section('Results', resultsBox),
    runLogSection(id, ctx.signal),
  );

  try {
    const [r, loaded] = await Promise.all([get(`/v1/runs/${seg(id)}`, {}, { signal: ctx.signal }), scraperNames(ctx.signal).catch(() => ({ names: new Map(), scrapers: [] }))]);
    names = loaded.names;
    scraper = (loaded.scrapers ?? []).find((x) => x.scraper_id === r.scraper_id) ?? null;
    show(r);
  } catch (err) {
    if (isAbort(err)) return;
    clear(info).append(h('p', { class: 'load-error' }, `Could not load run ${id}.`));
    showError(err, 'Run');
    return;
  }
  // Deliveries of run.completed to the run's own webhook_url (only when it has one).
  const deliveries = run.webhook_url
    ? ownDeliveries(`/v1/runs/${seg(id)}/deliveries`, ctx, {
      id: 'run-deliveries',
      empty: 'No deliveries yet: run.completed is sent to the webhook URL when the run ends.',
      intro: 'Deliveries of run.completed to this run\'s webhook URL (signed with the tenant\'s job-webhook secret).',
    })
    : null;
  if (deliveries) page.append(deliveries.el);
  // A finished run's delivery may still be queued or in flight: settle() reloads until it is not.
  await Promise.all([busy(null, () => loadResults(), 'Results'), TERMINAL.has(run.status) ? deliveries?.settle() : deliveries?.load()]);
  // Poll until the run is terminal. The server holds each call until the run ends or `wait`
  // passes. Results are reloaded whenever the item count grew (while the first pages are what
  // is shown), and once more at the end.
  let failures = 0;
  let itemsSeen = run.progress?.items ?? 0;
  while (!TERMINAL.has(run.status) && !ctx.signal.aborted) {
    try {
      show(await get(`/v1/runs/${seg(id)}`, { wait: LIVE_WAIT_S }, { signal: ctx.signal }));
      failures = 0;
    } catch (err) {
      if (isAbort(err)) return;
      if (++failures >= 3) {
        showError(err, 'Polling the run stopped');
        return;
      }
      await sleep(2000 * failures, ctx.signal).catch(() => undefined);
      continue;
    }
    const n = run.progress?.items ?? 0;
    if (TERMINAL.has(run.status)) {
      await Promise.all([busy(null, () => loadResults(), 'Results'), deliveries?.settle()]);
    } else if (n !== itemsSeen && all.length < RESULTS_PAGE) {
      itemsSeen = n;
      await busy(null, () => loadResults(), 'Results');
    }
  }
}
