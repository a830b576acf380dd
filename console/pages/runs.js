// Runs: list, start a run of a scraper, run detail with long-poll, results, exports, cancel.
import { h, clear, field, select, table, dl, badge, time, fmtBytes, truncate, extLink, sleep, isAbort } from '../lib/dom.js';
import { download, get, post, seg } from '../lib/api.js';
import { busy, groupNav, jsonView, pageHeader, pager, section, showError, showNotice } from '../lib/ui.js';
import { ownDeliveries } from './webhooks.js';

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

export const statusBadge = (s) => badge(s, s);

/** {"http": 5, "browser": 1} -> "http × 5, browser × 1". */
const fmtEngines = (e) =>
  Array.isArray(e) ? e.join(', ') : typeof e === 'object' ? Object.entries(e).map(([k, v]) => `${k} × ${v}`).join(', ') : String(e);

export async function runsList(page, ctx) {
  const status = ctx.query.get('status') ?? '';
  const t = table(
    [
      { label: 'Run', render: (r) => h('a', { href: `#/runs/${encodeURIComponent(r.id)}`, class: 'mono' }, r.id) },
      { label: 'Scraper', render: (r) => r.scraper_id },
      { label: 'Status', render: (r) => statusBadge(r.status) },
      { label: 'Pages', render: (r) => `${r.progress?.pages_done ?? 0}${r.progress?.pages_total ? ` / ${r.progress.pages_total}` : ''}` },
      { label: 'Items', render: (r) => String(r.progress?.items ?? 0) },
      { label: 'Created', render: (r) => time(r.created_at) },
    ],
    { caption: 'Runs', empty: 'No runs yet. Start one above.' },
  );
  const p = pager((cursor) => get('/v1/runs', { cursor, status: status || undefined, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });

  // New run form
  const scraperSel = h('select', { id: 'run-scraper', name: 'scraper_id', required: true }, h('option', { value: '' }, 'Loading scrapers…'));
  const desc = h('small', { class: 'hint', id: 'run-scraper-desc' });
  const input = h('textarea', { id: 'run-input', name: 'input', rows: '8', class: 'mono', spellcheck: 'false', required: true });
  const webhook = h('input', { type: 'url', id: 'run-webhook', name: 'webhook_url', placeholder: 'https://… (optional)' });
  const profileSel = h('select', { id: 'run-profile', name: 'browser_profile' }, h('option', { value: '' }, 'None (default rendering)'));
  const profileHint = h('small', { class: 'hint', id: 'run-profile-hint' },
    'Optional: how browser-engine pages render (viewport, locale, time zone, colour scheme). The User-Agent still identifies Gleaner. Manage them in ',
    h('a', { href: '#/settings/profiles' }, 'Settings → Browser profiles'), '.');
  profileSel.setAttribute('aria-describedby', profileHint.id);
  const start = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Start run');
  let scrapers = [];
  const fillExample = () => {
    const s = scrapers.find((x) => x.scraper_id === scraperSel.value);
    desc.textContent = s ? `${s.description ?? ''}${s.engine ? ` (engine: ${s.engine})` : ''}` : '';
    if (s) input.value = JSON.stringify(exampleFor(s.input_schema) ?? {}, null, 2);
  };
  scraperSel.addEventListener('change', fillExample);
  const form = h('form', { class: 'form', 'aria-label': 'Start a run' },
    h('div', { class: 'field' }, h('label', { for: scraperSel.id }, 'Scraper'), scraperSel, desc),
    field('Input (JSON)', input, 'Prefilled from the scraper\'s input schema; edit before starting.'),
    h('div', { class: 'row' },
      field('Webhook URL', webhook, 'Optional: receives run.completed when the run ends.'),
      h('div', { class: 'field' }, h('label', { for: profileSel.id }, 'Browser profile'), profileSel, profileHint)),
    h('div', { class: 'form-actions' }, start));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    let parsed;
    try {
      parsed = JSON.parse(input.value || '{}');
    } catch (err) {
      showError(new Error(`The input is not valid JSON: ${err.message}`), 'Start run');
      input.focus();
      return;
    }
    busy(start, async () => {
      const body = { scraper_id: scraperSel.value, input: parsed };
      if (webhook.value.trim()) body.webhook_url = webhook.value.trim();
      if (profileSel.value) body.browser_profile = profileSel.value;
      const run = await post('/v1/runs', body);
      showNotice(`Run ${run.id} started`);
      ctx.navigate(`#/runs/${encodeURIComponent(run.id)}`);
    }, 'Start run');
  });

  const statusSel = select([{ value: '', label: 'All statuses' }, ...RUN_STATUSES], status, { id: 'runs-status', 'aria-label': 'Filter by status' });
  statusSel.addEventListener('change', () => ctx.navigate(statusSel.value ? `#/runs?status=${statusSel.value}` : '#/runs'));
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Runs'));

  page.append(
    pageHeader('Runs', statusSel, refresh),
    groupNav('runs', 'runs'),
    h('details', { class: 'card new-run', open: true }, h('summary', {}, h('span', { class: 'h2' }, 'Start a run')), form),
    section('Recent runs', t.el, p.el),
  );
  await Promise.all([
    busy(refresh, () => p.first(), 'Runs'),
    busy(start, async () => {
      scrapers = (await get('/v1/scrapers', {}, { signal: ctx.signal })).data ?? [];
      clear(scraperSel).append(...scrapers.map((s) => h('option', { value: s.scraper_id }, `${s.name ?? s.scraper_id} (${s.scraper_id})`)));
      if (!scrapers.length) scraperSel.append(h('option', { value: '' }, 'No scrapers'));
      // #/runs?scraper=rbk_… (from Studio) preselects that scraper.
      const wanted = ctx.query.get('scraper');
      if (wanted && scrapers.some((x) => x.scraper_id === wanted)) scraperSel.value = wanted;
      fillExample();
    }, 'Scrapers'),
    loadProfiles(profileSel, profileHint, ctx.signal),
  ]);
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

/** Seconds each status poll of a running run waits on the server (the progress refresh period). */
const LIVE_WAIT_S = 2;

const fmtDuration = (s) => {
  if (s < 60) return `${Math.round(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
};

/**
 * A run's progress line. Site crawls also report pages queued and failed, the current rate and an
 * ETA (API.md "Verified domains and large crawls"); those show while the run is running.
 */
export function fmtProgress(pr, terminal) {
  const parts = [`${pr.pages_done ?? 0}${pr.pages_total ? ` / ${pr.pages_total}` : ''} pages done`];
  if (pr.pages_queued !== undefined && !terminal) parts.push(`${pr.pages_queued} queued`);
  if (pr.pages_failed !== undefined) parts.push(`${pr.pages_failed} failed`);
  parts.push(`${pr.items ?? 0} items`);
  if (!terminal) {
    if (typeof pr.rate_per_s === 'number') parts.push(`${pr.rate_per_s < 10 ? pr.rate_per_s.toFixed(1) : Math.round(pr.rate_per_s)} pages/s`);
    if (typeof pr.eta_s === 'number') parts.push(`ETA ${fmtDuration(pr.eta_s)}`);
  }
  return parts.join(' · ');
}

export async function runDetail(page, ctx) {
  const id = ctx.params.id;
  const info = h('div', { id: 'run-info' }, h('p', { class: 'loading' }, 'Loading…'));
  const cancel = h('button', { type: 'button', class: 'btn btn-danger', hidden: true }, 'Cancel run');
  const csv = h('button', { type: 'button', class: 'btn' }, 'Export CSV');
  const ndjson = h('button', { type: 'button', class: 'btn' }, 'Export NDJSON');
  const resultsBox = h('div', { id: 'run-results' });
  let run = null;

  csv.addEventListener('click', () => busy(csv, async () => showNotice(`Downloaded ${await download(`/v1/runs/${seg(id)}/results`, { format: 'csv' }, `${id}.csv`)}`), 'Export'));
  ndjson.addEventListener('click', () => busy(ndjson, async () => showNotice(`Downloaded ${await download(`/v1/runs/${seg(id)}/results`, { format: 'ndjson' }, `${id}.ndjson`)}`), 'Export'));
  cancel.addEventListener('click', () => {
    if (!confirm(`Cancel run ${id}?`)) return;
    busy(cancel, async () => {
      show(await post(`/v1/runs/${seg(id)}/cancel`));
      showNotice('Cancel requested');
    }, 'Cancel');
  });

  function show(r) {
    run = r;
    cancel.hidden = TERMINAL.has(r.status);
    const s = r.stats ?? {};
    const pr = r.progress ?? {};
    clear(info).append(
      dl([
        ['Status', h('span', { id: 'run-status' }, statusBadge(r.status), TERMINAL.has(r.status) ? '' : h('span', { class: 'spinner', 'aria-hidden': 'true' }))],
        ['Scraper', r.scraper_id],
        ['Created', time(r.created_at)],
        ['Started', time(r.started_at)],
        ['Finished', time(r.finished_at)],
        ['Progress', h('span', { id: 'run-progress', 'aria-live': 'polite' }, fmtProgress(pr, TERMINAL.has(r.status)))],
        ['Requests', `${s.requests ?? 0} requests · ${fmtBytes(s.bytes ?? 0)} · ${s.blocked_requests ?? 0} blocked · ${s.robots_skipped ?? 0} skipped by robots.txt`],
        r.engines_used && Object.keys(r.engines_used).length ? ['Engines', fmtEngines(r.engines_used)] : null,
        r.stop_reason ? ['Stop reason', String(r.stop_reason)] : null,
        r.webhook_url ? ['Webhook', r.webhook_url] : null,
        r.browser_profile ? ['Browser profile', h('a', { href: `#/settings/profiles?id=${encodeURIComponent(r.browser_profile)}`, class: 'mono' }, r.browser_profile)] : null,
      ]),
      r.error ? h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, `Run ${r.status}: `), r.error.message ?? '', r.error.code ? h('span', { class: 'hint' }, ` (${r.error.code})`) : null) : null,
      h('details', { class: 'sub' }, h('summary', {}, 'Input'), jsonView(r.input ?? {}, { label: 'Run input' })),
    );
  }

  let resultsLoadedFor;
  /** Results table: columns from the first data keys seen (at most 6), rebuilt as pages load. */
  async function loadResults() {
    const cols = new Set();
    const all = [];
    const host = h('div');
    const p = pager((cursor) => get(`/v1/runs/${seg(id)}/results`, { cursor, limit: 50 }, { signal: ctx.signal }), (rows) => {
      all.push(...rows);
      for (const it of all) for (const k of Object.keys(it.data ?? {})) if (cols.size < 6) cols.add(k);
      const tb = table(
        [
          { label: 'URL', render: (it) => extLink(it.url, truncate(it.url, 60)) },
          { label: 'HTTP', render: (it) => String(it.status_code ?? '') },
          ...[...cols].map((k) => ({
            label: k,
            class: 'data-col',
            render: (it) => {
              const v = it.data?.[k];
              return truncate(typeof v === 'string' ? v : (JSON.stringify(v) ?? ''), 80);
            },
          })),
          { label: 'Fetched', render: (it) => time(it.fetched_at) },
        ],
        { caption: 'Results', empty: 'No items yet.' },
      );
      tb.add(all);
      clear(host).append(tb.el);
    });
    clear(resultsBox).append(host, p.el);
    await p.first();
  }

  page.append(
    pageHeader(`Run ${id}`, cancel, csv, ndjson),
    h('p', {}, h('a', { href: '#/runs' }, '← All runs')),
    section('Status', info),
    section('Results', resultsBox),
  );

  try {
    show(await get(`/v1/runs/${seg(id)}`, {}, { signal: ctx.signal }));
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
  await Promise.all([busy(null, loadResults, 'Results'), TERMINAL.has(run.status) ? deliveries?.settle() : deliveries?.load()]);
  resultsLoadedFor = run.status;
  // Poll until the run is terminal. The server holds each call until the run ends or `wait`
  // passes; a short wait keeps a running crawl's progress (done, queued, rate, ETA) live.
  let failures = 0;
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
    }
    if (TERMINAL.has(run.status) && resultsLoadedFor !== run.status) {
      resultsLoadedFor = run.status;
      await Promise.all([busy(null, loadResults, 'Results'), deliveries?.settle()]);
    }
  }
}
