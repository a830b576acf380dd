// Changes: what change tracking found (GET /v1/changes), filtered by URL, tag, job and status,
// and one change (GET /v1/changes/{id}) as a diff a person can read: added and removed lines
// marked, field changes as a table, both versions, and the history of the same URL.
import { h, clear, table, dl, badge, time, truncate, extLink, select } from '../lib/dom.js';
import { get, seg } from '../lib/api.js';
import { busy, groupNav, idChip, pageHeader, pager, plural, section, showError } from '../lib/ui.js';
import { tabbed } from '../lib/results.js';
import { renderMarkdown } from '../lib/markdown.js';
import { valueWords } from '../lib/typed-view.js';

const STATUSES = [['', 'All (new, changed, removed)'], ['changed', 'Changed'], ['new', 'New'], ['removed', 'Removed']];
const changeBadge = (s) => badge(s, s === 'changed' ? 'running' : s === 'removed' ? 'failed' : s === 'new' ? 'succeeded' : 'cancelled');

/** "+3 −1 lines · 2 fields" */
function summary(c) {
  const parts = [];
  if (c.added_lines || c.removed_lines) parts.push(`+${c.added_lines ?? 0} −${c.removed_lines ?? 0} lines`);
  const nf = c.fields ? Object.keys(c.fields).length : 0;
  if (nf) parts.push(plural(nf, 'field'));
  return parts.join(' · ') || (c.status === 'new' ? 'first snapshot' : c.status === 'removed' ? 'page gone' : '—');
}

/** Job labels by id (for names, not ids), read once; failures leave ids shown. */
async function jobLabels(signal) {
  const out = new Map();
  try {
    const res = await get('/v1/jobs', { limit: 100 }, { signal, quiet: true });
    for (const j of res.data ?? []) out.set(j.job_id, j.label);
  } catch {
    /* ids stay */
  }
  return out;
}

export async function changesList(page, ctx) {
  const q = ctx.query;
  // From a run's Change badge (#/changes?url=…&run_id=…): straight to that run's change of the
  // page, with its diff, when there is one; else the page's history below.
  if (q.get('url') && q.get('run_id')) {
    try {
      const res = await get('/v1/changes', { url: q.get('url'), tag: q.get('tag') || undefined, limit: 50 }, { signal: ctx.signal, quiet: true });
      const hit = (res.data ?? []).find((c) => c.run_id === q.get('run_id'));
      if (hit) {
        // replace: Back then returns to the run, not to this hop.
        location.replace(`#/changes/${encodeURIComponent(hit.change_id)}`);
        return;
      }
    } catch {
      /* the list below says what it can */
    }
  }
  const url = h('input', { type: 'text', id: 'changes-url', name: 'url', value: q.get('url') ?? '', placeholder: 'https://…', spellcheck: 'false' });
  const tag = h('input', { type: 'text', id: 'changes-tag', name: 'tag', value: q.get('tag') ?? '', placeholder: 'default', spellcheck: 'false', maxlength: '64' });
  const status = select(STATUSES.map(([value, label]) => ({ value, label })), q.get('status') ?? '', { id: 'changes-status', name: 'status' });
  const job = h('select', { id: 'changes-job', name: 'job_id' }, h('option', { value: '' }, 'All jobs'));
  const apply = h('button', { type: 'submit', class: 'btn' }, 'Filter');
  const filters = h('form', { class: 'inline-form filters', role: 'search', 'aria-label': 'Filter changes' },
    h('div', { class: 'field' }, h('label', { for: url.id }, 'URL'), url),
    h('div', { class: 'field' }, h('label', { for: tag.id }, 'Tag'), tag),
    h('div', { class: 'field' }, h('label', { for: job.id }, 'Job'), job),
    h('div', { class: 'field' }, h('label', { for: status.id }, 'Status'), status),
    h('div', { class: 'field' }, apply));
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const [k, el] of [['url', url], ['tag', tag], ['job_id', job], ['status', status]]) if (el.value.trim()) p.set(k, el.value.trim());
    ctx.navigate(`#/changes${p.toString() ? `?${p}` : ''}`);
  });
  const labels = await jobLabels(ctx.signal);
  for (const [id, label] of labels) job.append(h('option', { value: id, selected: id === q.get('job_id') }, label));
  if (q.get('job_id') && !labels.has(q.get('job_id'))) job.append(h('option', { value: q.get('job_id'), selected: true }, q.get('job_id')));

  const t = table([
    { label: 'Page', class: 'wide', render: (c) => h('div', { class: 'name-id' }, h('a', { href: `#/changes/${encodeURIComponent(c.change_id)}`, class: 'break' }, truncate(c.url, 90)), c.tag && c.tag !== 'default' ? h('span', { class: 'hint' }, `tag ${c.tag}`) : null) },
    { label: 'Status', render: (c) => changeBadge(c.status) },
    { label: 'What changed', render: (c) => summary(c) },
    { label: 'Detected', render: (c) => time(c.detected_at) },
    { label: 'Job', render: (c) => (c.job_id ? h('a', { href: `#/jobs/${encodeURIComponent(c.job_id)}` }, labels.get(c.job_id) ?? c.job_id) : '—') },
    { label: 'Run', render: (c) => (c.run_id ? h('a', { href: `#/runs/${encodeURIComponent(c.run_id)}` }, 'Open run') : '—') },
  ], { caption: 'Changes', empty: 'No changes found yet. Tick "Track changes" on a job (or add "changes" to a run\'s formats): new, changed and removed pages show here.' });
  const query = { url: q.get('url') || undefined, tag: q.get('tag') || undefined, job_id: q.get('job_id') || undefined, status: q.get('status') || undefined };
  const p = pager((cursor) => get('/v1/changes', { ...query, cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Changes'));
  page.append(
    pageHeader('Changes', refresh),
    groupNav('runs', 'changes'),
    h('p', { class: 'lead' }, 'Pages that are new, changed or removed since the last time they were fetched with change tracking. Noise (timestamps, tracking parameters, whitespace) is not a change; a page that could not be read is never reported as changed or removed.'),
    section('Filter', filters),
    section('Changes', t.el, p.el),
  );
  await busy(refresh, () => p.first(), 'Changes');
}

/** A unified diff as lines marked added (+) or removed (−), with hunk headers; the file headers are dropped. */
export function diffView(diff) {
  const lines = String(diff ?? '').split('\n');
  const out = [];
  for (const line of lines) {
    if (line.startsWith('---') || line.startsWith('+++')) continue;
    if (line.startsWith('@@')) out.push(h('span', { class: 'diff-line diff-hunk' }, line));
    else if (line.startsWith('+')) out.push(h('span', { class: 'diff-line diff-add' }, h('span', { class: 'diff-mark', 'aria-hidden': 'true' }, '+'), h('span', { class: 'sr-only' }, 'Added: '), line.slice(1)));
    else if (line.startsWith('-')) out.push(h('span', { class: 'diff-line diff-del' }, h('span', { class: 'diff-mark', 'aria-hidden': 'true' }, '−'), h('span', { class: 'sr-only' }, 'Removed: '), line.slice(1)));
    else if (line.length) out.push(h('span', { class: 'diff-line' }, h('span', { class: 'diff-mark', 'aria-hidden': 'true' }, ' '), line.startsWith(' ') ? line.slice(1) : line));
  }
  return h('div', { class: 'diff', role: 'region', 'aria-label': 'Changed lines', tabindex: '0', id: 'change-diff' }, out);
}

const cell = (v) => (v === null || v === undefined ? h('span', { class: 'hint' }, '(none)') : h('code', { class: 'break' }, truncate(typeof v === 'string' ? v : valueWords('', v), 300)));

/** Field changes as a table: the field (its JSON pointer, read as a path), before, after. */
export function fieldsTable(fields) {
  const rows = Object.entries(fields ?? {}).map(([pointer, v]) => ({ pointer, ...v }));
  const t = table([
    { label: 'Field', render: (r) => h('code', {}, r.pointer.replace(/^\//, '').replace(/\//g, ' › ') || '(whole value)') },
    { label: 'Before', render: (r) => cell(r.previous) },
    { label: 'After', render: (r) => cell(r.current) },
    { label: 'Change', render: (r) => (r.previous === null || r.previous === undefined ? 'appeared' : r.current === null || r.current === undefined ? 'went away' : 'changed') },
  ], { caption: 'Field changes', empty: 'No field changed.' });
  t.add(rows);
  t.el.id = 'change-fields';
  return t.el;
}

/** A version of the page as rendered Markdown, its headings moved below this page's own (h1 -> h4). */
function pageVersion(md) {
  const box = h('div', { class: 'markdown' }, renderMarkdown(md));
  for (const hd of Array.from(box.querySelectorAll('h1, h2, h3, h4, h5, h6'))) {
    const next = h(`h${Math.min(6, Number(hd.tagName[1]) + 3)}`, {}, ...Array.from(hd.childNodes));
    hd.replaceWith(next);
  }
  return box;
}

export async function changeDetail(page, ctx) {
  const id = ctx.params.id;
  const title = h('h1', { tabindex: '-1', class: 'break' }, 'Change');
  const info = h('div', {}, h('p', { class: 'loading' }, 'Loading…'));
  const body = h('div', { id: 'change-body' });
  const history = table([
    { label: 'Detected', render: (c) => (c.change_id === id ? h('strong', {}, time(c.detected_at), ' (this one)') : h('a', { href: `#/changes/${encodeURIComponent(c.change_id)}` }, time(c.detected_at))) },
    { label: 'Status', render: (c) => changeBadge(c.status) },
    { label: 'What changed', render: (c) => summary(c) },
  ], { caption: 'History of this URL', empty: 'No other changes recorded.' });
  page.append(h('div', { class: 'page-head' }, title), h('p', { class: 'subtitle' }, 'Change ', idChip(id, 'change id')), h('p', {}, h('a', { href: '#/changes' }, '← All changes')),
    section('Change', info), section('What changed', body), section('History of this URL', history.el));
  let c;
  try {
    c = await get(`/v1/changes/${seg(id)}`, {}, { signal: ctx.signal });
  } catch (err) {
    clear(info).append(h('p', { class: 'load-error' }, `Could not load change ${id}.`));
    showError(err, 'Change');
    return;
  }
  const labels = c.job_id ? await jobLabels(ctx.signal) : new Map();
  title.textContent = c.url;
  clear(info).append(dl([
    ['Page', extLink(c.url, c.url)],
    ['Status', changeBadge(c.status)],
    ['Tag', c.tag ?? 'default'],
    ['Detected', time(c.detected_at)],
    ['Compared with', c.previous_fetched_at ? h('span', {}, 'the page as fetched ', time(c.previous_fetched_at)) : 'nothing (first snapshot)'],
    ['Lines', `+${c.added_lines ?? 0} added, −${c.removed_lines ?? 0} removed`],
    c.job_id ? ['Job', h('a', { href: `#/jobs/${encodeURIComponent(c.job_id)}` }, labels.get(c.job_id) ?? c.job_id)] : null,
    c.run_id ? ['Run', h('a', { href: `#/runs/${encodeURIComponent(c.run_id)}` }, 'Open the run')] : null,
  ]));
  const parts = [];
  if (c.fields && Object.keys(c.fields).length) parts.push(h('h3', {}, 'Fields'), fieldsTable(c.fields));
  if (c.diff) parts.push(h('h3', {}, 'Text'), h('p', { class: 'hint' }, 'Lines marked + were added, lines marked − were removed (main content, as Markdown).'), diffView(c.diff));
  else if (c.status === 'new') parts.push(h('p', {}, 'The first snapshot of this page under this tag: the next fetch is compared with it.'));
  else if (c.status === 'removed') parts.push(h('p', {}, 'The page is gone (it answered 404 or 410, or a complete crawl no longer reached it). It is reported once.'));
  const versions = [];
  if (typeof c.previous_markdown === 'string') versions.push(['Before', pageVersion(c.previous_markdown)]);
  if (typeof c.current_markdown === 'string') versions.push(['After', pageVersion(c.current_markdown)]);
  if (versions.length) parts.push(h('h3', {}, 'Both versions'), tabbed('Versions', versions).el);
  clear(body).append(...(parts.length ? parts : [h('p', {}, 'Nothing to show.')]));
  try {
    const res = await get('/v1/changes', { url: c.url, tag: c.tag, limit: 50 }, { signal: ctx.signal });
    history.add(res.data ?? []);
  } catch (err) {
    showError(err, 'History');
  }
}
