// Queries: submit a prompt against sources, poll it, show items, summary and per-source status.
import { h, clear, field, select, checkboxGroup, table, dl, badge, time, truncate, extLink, sleep, isAbort } from '../lib/dom.js';
import { get, post, seg } from '../lib/api.js';
import { backoff } from './runs.js';
import { busy, consoleText, groupNav, idChip, jsonView, pageHeader, pager, section, showError, showNotice } from '../lib/ui.js';
import { windowWords } from '../lib/words.js';

export const SOURCES = ['x', 'reddit', 'linkedin', 'youtube', 'tiktok', 'instagram', 'facebook'];
export const SOURCE_LABELS = { x: 'X', reddit: 'Reddit', linkedin: 'LinkedIn', youtube: 'YouTube', tiktok: 'TikTok', instagram: 'Instagram', facebook: 'Facebook' };
export const sourceLabel = (s) => SOURCE_LABELS[s] ?? s;
export const WINDOWS = [
  { value: '', label: 'Default (last 7 days)' },
  { value: '24h', label: 'Last 24 hours' },
  { value: '7d', label: 'Last 7 days' },
  { value: '30d', label: 'Last 30 days' },
  { value: '90d', label: 'Last 90 days' },
];

/** The fields shared by the query and job forms. */
export function queryFields({ idPrefix = 'query' } = {}) {
  const prompt = h('textarea', { id: `${idPrefix}-prompt`, name: 'prompt', rows: '3', maxlength: '2000', required: true, placeholder: 'what are people saying about "acme shoes" last week' });
  const sources = checkboxGroup('Sources', SOURCES.map((value) => ({ value, label: sourceLabel(value) })), { checked: [], name: `${idPrefix}-sources`, hint: 'Each source needs its credentials (Settings → Sources).' });
  markUnconfigured(sources);
  const windowSel = select(WINDOWS, '', { id: `${idPrefix}-window`, name: 'time_window' });
  const limit = h('input', { type: 'number', id: `${idPrefix}-limit`, name: 'limit', min: '1', max: '1000', step: '1', value: '100', required: true });
  return {
    els: [field('Prompt', prompt), sources.el, h('div', { class: 'row' }, field('Time window', windowSel), field('Result limit', limit, '1 to 1000'))],
    prompt,
    sources,
    body() {
      const b = { prompt: prompt.value, sources: sources.values(), limit: Number(limit.value) };
      if (windowSel.value) b.time_window = { last: windowSel.value };
      return b;
    },
  };
}

export const queryStatus = (s) => badge(s, s);

/**
 * Marks the sources without credentials in a sources checkbox group ("no credentials", with a
 * link to that source's card), from the social overview (admins); others see the plain list.
 */
async function markUnconfigured(group) {
  let data;
  try {
    data = await get('/dashboard/api/social', {}, { quiet: true });
  } catch {
    return;
  }
  const configured = new Map((data.sources ?? []).map((s) => [s.source, s.configured]));
  for (const b of group.boxes) {
    if (configured.get(b.input.value) !== false) continue;
    b.el.classList.add('unconfigured');
    // A source without credentials cannot answer: it cannot be ticked (the link says what to do).
    b.input.checked = false;
    b.input.disabled = true;
    b.el.after(h('a', { href: `#/settings/sources?source=${encodeURIComponent(b.input.value)}`, class: 'no-creds', 'aria-label': `${sourceLabel(b.input.value)} has no credentials: add them in Settings → Sources` }, 'no credentials: add'));
  }
}

export async function queriesPage(page, ctx) {
  const f = queryFields();
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'query-submit' }, 'Submit query');
  const form = h('form', { class: 'form', 'aria-label': 'New query' }, f.els, h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(submit, async () => {
      const q = await post('/v1/queries', f.body());
      showNotice(`Query ${q.query_id} submitted`);
      ctx.navigate(`#/queries/${encodeURIComponent(q.query_id)}`);
    }, 'Submit query');
  });

  const t = table(
    [
      { label: 'Query', class: 'wide', render: (q) => h('div', { class: 'name-id' }, h('a', { href: `#/queries/${encodeURIComponent(q.query_id)}` }, truncate(q.prompt, 80)), idChip(q.query_id, 'query id')) },
      { label: 'Sources', render: (q) => (q.sources ?? []).join(', ') },
      { label: 'Status', render: (q) => queryStatus(q.status) },
      { label: 'Created', render: (q) => time(q.created_at) },
    ],
    { caption: 'Queries', empty: 'No queries yet.' },
  );
  let shown = [];
  const p = pager((cursor) => get('/v1/queries', { cursor, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) shown = [];
    shown.push(...rows);
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Queries'));
  page.append(pageHeader('Queries', refresh), groupNav('social', 'queries'), section('New query', form), section('Recent queries', t.el, p.el));
  await busy(refresh, () => p.first(), 'Queries');
  // Live: while a listed query is queued or running, reload the list with back-off.
  const wait = backoff();
  while (!ctx.signal.aborted && shown.some((q) => q.status === 'queued' || q.status === 'running')) {
    await sleep(wait.ms, ctx.signal).catch(() => undefined);
    if (ctx.signal.aborted) return;
    const before = JSON.stringify(shown.map((q) => q.status));
    await p.first().catch(() => undefined);
    if (JSON.stringify(shown.map((q) => q.status)) !== before) wait.reset();
    else wait.next();
  }
}

export async function queryDetail(page, ctx) {
  const id = ctx.params.id;
  const head = h('div', { id: 'query-info' }, h('p', { class: 'loading' }, 'Loading…'));
  const results = h('div', { id: 'query-results' });
  const title = h('h1', { tabindex: '-1', class: 'break' }, 'Query');
  const subtitle = h('p', { class: 'subtitle' }, 'Query ', idChip(id, 'query id'));
  page.append(h('div', { class: 'page-head' }, title), subtitle, h('p', {}, h('a', { href: '#/queries' }, '← All queries')), section('Status', head), results);

  // The job's label (names, not ids), read once when the query belongs to a job.
  let jobName = null;
  const show = (q) => {
    if (q.job_id && jobName === null) {
      jobName = undefined;
      get(`/v1/jobs/${seg(q.job_id)}`, {}, { signal: ctx.signal, quiet: true }).then((j) => {
        jobName = j.label;
        show(q);
      }).catch(() => undefined);
    }
    title.textContent = q.prompt;
    const done = q.status === 'completed' || q.status === 'failed';
    const storageKey = q.result_url ? decodeURIComponent(q.result_url.split('/').pop() ?? '') : null;
    clear(head).append(
      dl([
        ['Status', h('span', { id: 'query-status' }, queryStatus(q.status), done ? '' : h('span', { class: 'spinner', 'aria-hidden': 'true' }))],
        ['Prompt', q.prompt],
        ['Sources', (q.sources ?? []).join(', ')],
        ['Time window', windowWords(q.time_window)],
        ['Limit', String(q.limit ?? '')],
        ['Created', time(q.created_at)],
        ['Completed', time(q.completed_at)],
        q.job_id ? ['Job', h('span', { id: 'query-job' }, h('a', { href: `#/jobs/${encodeURIComponent(q.job_id)}` }, jobName ?? 'the job that ran it'), ' ', idChip(q.job_id, 'job id'))] : null,
        storageKey ? ['Stored result', h('a', { href: `#/storage?key=${encodeURIComponent(storageKey)}` }, storageKey)] : null,
      ]),
      q.status === 'failed' ? h('div', { class: 'error-box', id: 'query-error', role: 'alert' }, h('strong', {}, 'Query failed: '), consoleText(q.error ?? 'no message')) : null,
    );
    if (q.status === 'completed' && q.results) renderResults(results, q.results);
  };

  let q;
  let failures = 0;
  for (let i = 0; !ctx.signal.aborted; i++) {
    try {
      q = await get(`/v1/queries/${seg(id)}`, {}, { signal: ctx.signal });
      failures = 0;
      show(q);
      if (q.status === 'completed' || q.status === 'failed') return;
    } catch (err) {
      if (isAbort(err)) return;
      if (!q) {
        clear(head).append(h('p', { class: 'load-error' }, `Could not load query ${id}.`));
        showError(err, 'Query');
        return;
      }
      if (++failures >= 3) {
        showError(err, 'Polling the query stopped');
        return;
      }
    }
    await sleep(Math.min(500 + i * 250, 3000), ctx.signal).catch(() => undefined);
  }
}

function renderResults(host, r) {
  const bySource = r.by_source ?? {};
  const summary = r.summary ?? {};
  const srcTable = table(
    [
      { label: 'Source', render: (x) => sourceLabel(x.source) },
      { label: 'Status', render: (x) => badge(x.status, x.status === 'ok' ? 'succeeded' : x.status === 'error' ? 'failed' : 'queued') },
      { label: 'Items', render: (x) => String(x.count ?? 0) },
      { label: 'Message', render: (x) => consoleText(x.error ?? '') },
    ],
    { caption: 'By source', empty: 'No sources.' },
  );
  srcTable.add(Object.entries(bySource).map(([source, v]) => ({ source, ...v })));
  const items = table(
    [
      { label: 'Source', render: (i) => sourceLabel(i.source) },
      { label: 'Author', render: (i) => truncate(typeof i.author === 'object' && i.author ? (i.author.name ?? i.author.username ?? JSON.stringify(i.author)) : (i.author ?? ''), 40) },
      { label: 'Text', render: (i) => truncate(i.text, 200), class: 'wide' },
      { label: 'Created', render: (i) => time(i.created_at) },
      { label: 'Metrics', render: (i) => Object.entries(i.metrics ?? {}).map(([k, v]) => `${k} ${v}`).join(' · ') },
      { label: 'Link', render: (i) => (i.url ? extLink(i.url, 'open') : '') },
    ],
    { caption: 'Items', empty: 'No items matched.' },
  );
  items.add(r.items ?? []);
  const terms = Array.isArray(summary.top_terms) ? summary.top_terms : [];
  clear(host).append(
    section('Summary',
      dl([
        ['Total items', String(summary.total ?? (r.items ?? []).length)],
        summary.sentiment !== undefined && summary.sentiment !== null
          ? ['Sentiment', typeof summary.sentiment === 'object' ? Object.entries(summary.sentiment).map(([k, v]) => `${k} ${typeof v === 'number' ? Math.round(v * 100) / 100 : JSON.stringify(v)}`).join(' · ') : String(summary.sentiment)]
          : null,
        terms.length ? ['Top terms', terms.slice(0, 20).map((t) => (typeof t === 'object' ? `${t.term ?? t.text ?? JSON.stringify(t)}${t.count ? ` (${t.count})` : ''}` : String(t))).join(', ')] : null,
      ]),
      h('h3', {}, 'By source'), srcTable.el),
    section(`Items (${(r.items ?? []).length})`, items.el),
    r.plan ? h('details', { class: 'card' }, h('summary', {}, 'Query plan'), jsonView(r.plan, { label: 'Plan' })) : null,
  );
}
