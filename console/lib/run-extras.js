// Pieces of the run pages that keep the console true to the service: live polling while the page
// is visible, the HTTP-error mark shared by the runs list and a run's page, the run's request log
// (GET /v1/runs/{id}/log) and the CSV column chooser (GET /v1/runs/{id}/results?format=csv&columns=).
import { h, clear, nextId, sleep, isAbort, table, time, fmtBytes, truncate, extLink, badge } from './dom.js';
import { get, request, seg } from './api.js';
import { busy, plural } from './ui.js';
import { fieldLabel } from './results.js';
import { failureWords } from './words.js';

/** Resolves once the page is visible (at once when it is), or when `signal` aborts. */
const visible = (signal) => new Promise((resolve) => {
  if (document.visibilityState === 'visible' || signal.aborted) return resolve();
  const done = () => {
    document.removeEventListener('visibilitychange', on);
    signal.removeEventListener('abort', done);
    resolve();
  };
  const on = () => document.visibilityState === 'visible' && done();
  document.addEventListener('visibilitychange', on);
  signal.addEventListener('abort', done);
});

/**
 * Call `tick` every `ms` while the page is visible, until `signal` aborts (the reader navigated
 * away). A failing tick is retried on the next one (the page keeps what it shows).
 */
export async function liveLoop(signal, ms, tick) {
  while (!signal.aborted) {
    await sleep(ms, signal).catch(() => undefined);
    await visible(signal);
    if (signal.aborted) return;
    try {
      await tick();
    } catch (err) {
      if (isAbort(err) || signal.aborted) return;
    }
  }
}

/** Runs up to this many items get the list's HTTP-error mark (beyond, their own page shows it). */
const MARKED_ITEMS = 5000;

/** A run's items' HTTP statuses ([{ status_code }]), read as the CSV export's status_code column. */
export async function statusesOf(runId, signal) {
  const res = await request('GET', `/v1/runs/${seg(runId)}/results`, { query: { format: 'csv', columns: 'status_code' }, raw: true, signal, quiet: true });
  const lines = (await res.text()).split(/\r?\n/).slice(1).filter(Boolean);
  return lines.map((l) => ({ status_code: Number(l) }));
}

/** Items whose page answered an HTTP error: { count, codes: "404", text: "404 × 1" }, or null. */
export function httpErrors(items) {
  const bad = (items ?? []).filter((it) => Number(it.status_code) >= 400);
  if (!bad.length) return null;
  const by = {};
  for (const it of bad) by[it.status_code] = (by[it.status_code] ?? 0) + 1;
  return { count: bad.length, codes: Object.keys(by).join(', '), text: Object.entries(by).map(([c, n]) => `${c} × ${n}`).join(', ') };
}

/** The amber mark next to a run's status when its page(s) answered HTTP errors (list and run page alike). */
export const httpErrorChip = (bad) =>
  bad ? h('span', { class: 'badge badge-http-error', title: `${plural(bad.count, 'page')} answered with an HTTP error (${bad.text})` }, `HTTP ${bad.codes}`) : null;

/**
 * For finished runs, whether their pages answered HTTP errors: read once per run (a few items
 * themselves; a crawl's statuses only) and kept in `cache` (run id -> mark or null). Returns true
 * when a new mark was found. Runs over MARKED_ITEMS items are not read here (their page shows the mark).
 */
export async function httpErrorsOf(runs, cache, signal) {
  const todo = runs.filter((r) => r.status === 'succeeded' && !cache.has(r.id) && (r.progress?.items ?? 0) > 0 && (r.progress?.items ?? 0) <= MARKED_ITEMS);
  let found = false;
  await Promise.all(todo.map(async (r) => {
    cache.set(r.id, null);
    try {
      // A few items: read them. More (a crawl): only their HTTP statuses, as a one-column CSV.
      const items = (r.progress?.items ?? 0) <= 10
        ? (await get(`/v1/runs/${seg(r.id)}/results`, { limit: 10 }, { signal, quiet: true })).data
        : await statusesOf(r.id, signal);
      const bad = httpErrors(items);
      cache.set(r.id, bad);
      if (bad) found = true;
    } catch {
      cache.delete(r.id);
    }
  }));
  return found;
}

const DECISIONS = { fetched: 'Fetched', robots_skipped: 'Skipped by robots.txt', blocked: 'Blocked (challenge)', forbidden: 'Refused by policy', failed: 'Failed', note: 'Note' };
/**
 * What a log entry is: the service logs both a failed request and a note the run made (sitemaps
 * read, limits hit) as decision "error"; a failed request names the engine that tried it, a note
 * does not. A failure is never called a note.
 */
export const logKind = (e) => (e.decision === 'error' ? (e.engine || e.status != null || e.timing_ms ? 'failed' : 'note') : e.decision);
const KIND_BADGE = { fetched: 'succeeded', failed: 'failed', note: 'queued' };
const LOG_SHOWN = 500;

/** Why, in words: a failure's cause said plainly (the service's words on hover); anything else as recorded. */
function reasonText(e) {
  if (!e.reason) return '';
  // robots.txt that could not be read counts as "all disallowed" (RFC 9309): say why in words.
  const robots = /^robots\.txt unreachable \((.*)\)/.exec(e.reason);
  if (robots) return h('span', { title: e.reason }, `robots.txt could not be read, so nothing on this site is fetched. ${failureWords(robots[1]).text}`);
  if (logKind(e) !== 'failed') return truncate(e.reason, 160);
  const w = failureWords(e.reason);
  return h('span', { title: e.reason }, truncate(w.text, 160));
}

/**
 * The run's log as a section: one line per request with its decision, and the notes the run
 * recorded (sitemaps read, limits hit). Read when opened (a crawl's log can be long).
 */
export function runLogSection(runId, signal) {
  const filter = h('select', { id: 'run-log-filter', 'aria-label': 'Show log entries' },
    h('option', { value: '' }, 'All entries'), Object.entries(DECISIONS).map(([v, l]) => h('option', { value: v }, l)));
  const reload = h('button', { type: 'button', class: 'btn btn-small', id: 'run-log-reload' }, 'Reload');
  const note = h('p', { class: 'hint', id: 'run-log-note', 'aria-live': 'polite' });
  const host = h('div', { id: 'run-log' });
  let entries = [];
  const draw = () => {
    const shown = entries.filter((e) => !filter.value || logKind(e) === filter.value);
    const t = table([
      { label: 'Time', render: (e) => time(e.ts) },
      { label: 'URL', class: 'wide', render: (e) => h('span', { class: 'break' }, extLink(e.url, truncate(e.url, 90))) },
      { label: 'What happened', render: (e) => badge(DECISIONS[logKind(e)] ?? e.decision, KIND_BADGE[logKind(e)] ?? 'blocked') },
      { label: 'HTTP', render: (e) => (e.status == null ? '—' : String(e.status)) },
      { label: 'Size', render: (e) => (e.bytes ? fmtBytes(e.bytes) : '—') },
      { label: 'Took', render: (e) => (e.timing_ms ? `${e.timing_ms} ms` : '—') },
      { label: 'Engine', render: (e) => e.engine ?? '—' },
      { label: 'Details', render: (e) => reasonText(e) },
    ], { caption: 'Run log', empty: entries.length ? 'No entries of this kind.' : 'The log is empty (it is written as the run works; reload in a moment).' });
    t.add(shown.slice(0, LOG_SHOWN));
    clear(host).append(t.el);
    note.textContent = `${plural(entries.length, 'entry', 'entries')}${shown.length > LOG_SHOWN ? `; the first ${LOG_SHOWN} of ${shown.length} shown` : ''}.`;
  };
  const load = () => busy(reload, async () => {
    const res = await get(`/v1/runs/${seg(runId)}/log`, {}, { signal });
    entries = res.data ?? [];
    draw();
  }, 'Run log');
  filter.addEventListener('change', draw);
  reload.addEventListener('click', load);
  const det = h('details', { class: 'card run-log', id: 'run-log-box' },
    h('summary', {}, h('span', { class: 'h2' }, 'Log'), h('span', { class: 'hint' }, ' · every request with its decision, sitemaps read and limits hit')),
    h('div', { class: 'actions' }, filter, reload), note, host);
  det.addEventListener('toggle', () => det.open && !entries.length && load(), { once: false });
  return det;
}

/**
 * The CSV export dialog: one checkbox per column (url, fetched_at, status_code, then the data
 * fields of the items shown), named for people, the raw name beside it. onDownload(columns)
 * gets the chosen columns in order, or undefined when all are ticked (the service's default).
 */
export function csvColumnsDialog(items, onDownload) {
  document.querySelector('dialog.csv-columns')?.remove();
  const keys = ['url', 'fetched_at', 'status_code'];
  for (const it of (items ?? []).slice(0, 200)) for (const k of Object.keys(it.data ?? {})) if (!keys.includes(k)) keys.push(k);
  const head = nextId('dlg');
  const boxes = keys.map((k) => h('input', { type: 'checkbox', id: nextId('csvcol'), value: k, checked: true }));
  const go = h('button', { type: 'button', class: 'btn btn-primary', id: 'csv-download' }, 'Download CSV');
  const cancel = h('button', { type: 'button', class: 'btn' }, 'Cancel');
  const all = h('button', { type: 'button', class: 'btn btn-small' }, 'All');
  const none = h('button', { type: 'button', class: 'btn btn-small' }, 'None');
  const msg = h('p', { class: 'hint', 'aria-live': 'polite' });
  const dlg = h('dialog', { class: 'item-detail csv-columns', 'aria-labelledby': head },
    h('h2', { id: head }, 'Export CSV'),
    h('fieldset', { class: 'field checks' },
      h('legend', {}, 'Columns, in this order'),
      h('div', { class: 'check-col' }, boxes.map((b, i) => h('label', { class: 'check', for: b.id }, b, ' ', fieldLabel(keys[i]), ' ', h('code', { class: 'hint' }, keys[i]))))),
    h('div', { class: 'actions' }, all, none),
    msg,
    h('div', { class: 'form-actions' }, go, cancel));
  all.addEventListener('click', () => boxes.forEach((b) => (b.checked = true)));
  none.addEventListener('click', () => boxes.forEach((b) => (b.checked = false)));
  cancel.addEventListener('click', () => dlg.close());
  dlg.addEventListener('close', () => dlg.remove());
  go.addEventListener('click', () => {
    const chosen = keys.filter((_, i) => boxes[i].checked);
    if (!chosen.length) {
      msg.textContent = 'Tick at least one column.';
      return;
    }
    busy(go, async () => {
      await onDownload(chosen.length === keys.length ? undefined : chosen);
      dlg.close();
    }, 'Export');
  });
  document.body.append(dlg);
  dlg.showModal();
  boxes[0]?.focus();
  return dlg;
}
