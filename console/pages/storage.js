// Stored files (SPEC.md 1, way 1), the second tab of Data: result files of queries and job runs,
// named by their prompt; select one to preview it as a table (when it holds a list of records)
// or as JSON; Download JSON, Delete.
import { h, append, clear, fmtBytes, time, field, isAbort, table, truncate } from '../lib/dom.js';
import { ApiError, del, download, get, request, seg } from '../lib/api.js';
import { busy, idChip, jsonView, pager, showError, showNotice } from '../lib/ui.js';
import { tabbed } from '../lib/results.js';
import { dataShell } from './datasets.js';

/** #/storage (and #/storage?key=… / ?job_id=…) is the Stored files tab of Data. */
export const storagePage = (page, ctx) => fileBrowser(page, ctx);

const RECORD_KEYS = ['items', 'results', 'records', 'data', 'posts'];
const isRecord = (x) => x && typeof x === 'object' && !Array.isArray(x);

/** The list of records a file holds: the file itself when it is one, else its first array of objects. */
export function recordsOf(value) {
  const ok = (a) => Array.isArray(a) && a.length > 0 && a.filter(isRecord).length >= a.length * 0.8;
  if (ok(value)) return { records: value, at: null };
  if (!isRecord(value)) return null;
  for (const k of [...RECORD_KEYS, ...Object.keys(value)]) if (ok(value[k])) return { records: value[k], at: k };
  return null;
}

/** A table of records: columns are the first keys seen (at most 8), cells one line each. */
function recordsTable(records) {
  const cols = [];
  for (const r of records.slice(0, 50)) for (const k of Object.keys(r)) if (cols.length < 8 && !cols.includes(k)) cols.push(k);
  const t = table(cols.map((k) => ({
    label: k,
    class: 'data-col',
    render: (r) => {
      const v = r?.[k];
      if (v === undefined || v === null) return '—';
      return truncate((typeof v === 'string' ? v : JSON.stringify(v)).replace(/\s+/g, ' '), 140);
    },
  })), { caption: 'Records' });
  t.add(records.slice(0, 500));
  return h('div', { class: 'records' }, t.el, records.length > 500 ? h('p', { class: 'hint' }, `The first 500 of ${records.length} records; see JSON or download the file for all.`) : null);
}

/** A file's name for people: its prompt (or job label), else its key. */
const fileLabel = (f) => f.label ?? f.job_label ?? null;

export async function fileBrowser(page, ctx) {
  const jobFilter = ctx.query.get('job_id') ?? '';
  const list = h('ul', { class: 'file-list', id: 'storage-files', 'aria-label': 'Stored files' });
  const preview = h('section', { class: 'card preview', id: 'storage-preview', 'aria-label': 'File preview', 'aria-live': 'polite' },
    h('p', { class: 'hint' }, 'Select a file to preview it.'));
  let selected = null;

  const empty = () => h('li', { class: 'empty' }, jobFilter
    ? 'No files for this job yet.'
    : ['No stored files yet. Each completed query and each job run stores its result here; run results are under ', h('a', { href: '#/datasets?kind=runs' }, 'Run datasets'), '.']);

  async function select(file, button) {
    selected = file.key;
    for (const b of list.querySelectorAll('button.file')) b.setAttribute('aria-pressed', String(b === button));
    clear(preview).append(h('p', { class: 'loading' }, `Loading ${fileLabel(file) ?? file.key}…`));
    let text;
    try {
      const res = await request('GET', `/v1/storage/${seg(file.key)}`, { raw: true, signal: ctx.signal });
      text = await res.text();
    } catch (err) {
      if (isAbort(err)) return;
      clear(preview).append(h('p', { class: 'load-error' }, `Could not load ${file.key}.`));
      showError(err, 'Preview');
      return;
    }
    if (selected !== file.key) return;
    let value;
    let parsed = true;
    try {
      value = JSON.parse(text);
    } catch {
      parsed = false;
    }
    const dl = h('button', { type: 'button', class: 'btn btn-primary', id: 'storage-download' }, 'Download JSON');
    dl.addEventListener('click', () => busy(dl, async () => {
      const name = await download(`/v1/storage/${seg(file.key)}`, { download: '1' }, file.key);
      showNotice(`Downloaded ${name}`);
    }, 'Download'));
    const rm = h('button', { type: 'button', class: 'btn btn-danger', id: 'storage-delete' }, 'Delete');
    rm.addEventListener('click', () => {
      if (!confirm(`Delete ${file.key}? This cannot be undone.`)) return;
      busy(rm, async () => {
        await del(`/v1/storage/${seg(file.key)}`);
        showNotice(`Deleted ${file.key}`);
        (button ?? list.querySelector(`button.file[data-key="${CSS.escape(file.key)}"]`))?.closest('li')?.remove();
        if (!list.querySelector('li')) list.append(empty());
        selected = null;
        clear(preview).append(h('p', { class: 'hint' }, 'Select a file to preview it.'));
      }, 'Delete');
    });
    const prompt = fileLabel(file) ?? (isRecord(value) && typeof value.prompt === 'string' ? value.prompt : null);
    const rec = parsed ? recordsOf(value) : null;
    const body = !parsed
      ? h('pre', { class: 'json-raw mono', tabindex: '0' }, text)
      : rec
        ? tabbed('File view', [
          [`Table (${rec.records.length})`, h('div', {}, rec.at ? h('p', { class: 'hint' }, `The records under "${rec.at}".`) : null, recordsTable(rec.records))],
          ['JSON', jsonView(value, { label: file.key })],
        ]).el
        : jsonView(value, { label: file.key });
    clear(preview).append(
      h('div', { class: 'preview-head' },
        h('div', { class: 'detail-title' },
          prompt ? h('h2', { class: 'break' }, truncate(prompt, 200)) : null,
          h(prompt ? 'p' : 'h2', { class: 'mono break small', id: 'storage-preview-title' }, file.key)),
        h('div', { class: 'actions' }, dl, rm)),
      h('p', { class: 'hint' },
        file.size !== undefined ? `${fmtBytes(file.size)} · ` : '',
        file.created_at ? ['created ', time(file.created_at)] : '',
        file.query_id ? [' · query ', h('a', { href: `#/queries/${encodeURIComponent(file.query_id)}`, class: 'mono' }, file.query_id)] : '',
        file.job_id ? [' · job ', h('a', { href: `#/jobs/${encodeURIComponent(file.job_id)}` }, file.job_label ?? file.job_id)] : null),
      body,
    );
  }

  // The file list with prompts comes from the console API (admins); a key with only
  // storage:read, or a job filter, reads /v1/storage (keys only).
  let useConsoleApi = !jobFilter;
  const loadPage = async (cursor) => {
    if (useConsoleApi) {
      try {
        const res = await get('/dashboard/api/datasets', { kind: 'files', cursor, limit: 50 }, { signal: ctx.signal, quiet: true });
        return { ...res, data: (res.data ?? []).map((f) => ({ ...f, key: f.id })) };
      } catch (err) {
        if (!(err instanceof ApiError) || (err.status !== 403 && err.status !== 401)) throw err;
        useConsoleApi = false;
      }
    }
    return get('/v1/storage', { cursor, job_id: jobFilter || undefined, limit: 50 }, { signal: ctx.signal });
  };
  const p = pager(loadPage, (rows, reset) => {
    if (reset) clear(list);
    if (reset && !rows.length) list.append(empty());
    for (const f of rows) {
      const label = fileLabel(f);
      const b = h('button', { type: 'button', class: 'file', 'aria-pressed': 'false', dataset: { key: f.key } },
        label ? h('span', { class: 'file-label' }, truncate(label, 90)) : null,
        h('span', { class: 'file-key mono' }, f.key),
        h('span', { class: 'file-meta' }, fmtBytes(f.size), ' · ', time(f.created_at), f.job_id ? ` · job${f.job_label ? ` ${f.job_label}` : ''}` : ''));
      b.addEventListener('click', () => select(f, b));
      list.append(h('li', {}, b));
    }
  });

  // Jobs by label (names, not ids): the query jobs whose runs store files here.
  const jobs = await get('/v1/jobs', { limit: 100 }, { signal: ctx.signal, quiet: true }).then((r) => r.data ?? []).catch(() => []);
  const jobLabel = new Map(jobs.map((j) => [j.job_id, j.label]));
  const filterInput = h('select', { name: 'job_id', id: 'storage-job' },
    h('option', { value: '' }, 'All files'),
    jobs.filter((j) => (j.kind ?? (j.scraper_id ? 'run' : 'query')) === 'query').map((j) => h('option', { value: j.job_id, selected: j.job_id === jobFilter }, j.label)),
    jobFilter && !jobLabel.has(jobFilter) ? h('option', { value: jobFilter, selected: true }, 'a deleted job') : null);
  const filterForm = h('form', { class: 'inline-form', role: 'search', 'aria-label': 'Filter files' }, field('Job', filterInput), h('button', { type: 'submit', class: 'btn' }, 'Filter'));
  filterForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = filterInput.value.trim();
    ctx.navigate(v ? `#/storage?job_id=${encodeURIComponent(v)}` : '#/datasets?kind=files');
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Stored files'));

  dataShell(page, 'files', refresh);
  append(page, [
    h('p', { class: 'lead' }, 'Stored JSON results: one file per completed query and per job run, named by its prompt. Select one to preview it; Download JSON saves the raw result.'),
    filterForm,
    jobFilter ? h('p', { class: 'hint' }, 'Files of job ', h('a', { href: `#/jobs/${encodeURIComponent(jobFilter)}` }, jobLabel.get(jobFilter) ?? 'a deleted job'), ' ', idChip(jobFilter, 'job id'), ' · ', h('a', { href: '#/datasets?kind=files' }, 'all files')) : null,
    h('div', { class: 'split' }, h('section', { class: 'card files', 'aria-label': 'Files' }, list, p.el), preview),
  ]);
  await busy(refresh, () => p.first(), 'Stored files');
  // #/storage?key=… opens that file (from a query's "Stored result" link).
  const wanted = ctx.query.get('key');
  if (wanted && !ctx.signal.aborted) {
    const b = Array.from(list.querySelectorAll('button.file')).find((x) => x.dataset.key === wanted);
    if (b) b.click();
    else await select({ key: wanted }, null);
  }
}
