// Settings → Audit: who did what, when. Filters by who (a key by name, or a console user), action,
// outcome and time; reads (GET calls and console page views) are left out unless asked for, so
// changes stand out. Resources are shown by name (key, job, runbook, page) with their id beside.
import { h, field, select, table, badge, time } from '../lib/dom.js';
import { get } from '../lib/api.js';
import { busy, idChip, pager, section } from '../lib/ui.js';
import { scraperNames } from './runs.js';
import { keyLabels } from '../lib/keys.js';

/** datetime-local value (local time) <-> ISO. */
const toLocal = (iso) => {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const p = (n) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
};
const toIso = (local) => (local ? new Date(local).toISOString() : '');

export async function auditBody(body, ctx) {
  const q = ctx.query;
  const [keys, jobs, loaded] = await Promise.all([
    get('/dashboard/api/keys', { limit: 200 }, { signal: ctx.signal, quiet: true }).then((r) => r.data ?? []).catch(() => []),
    get('/v1/jobs', { limit: 100 }, { signal: ctx.signal, quiet: true }).then((r) => r.data ?? []).catch(() => []),
    scraperNames(ctx.signal).catch(() => ({ names: new Map() })),
  ]);
  // Rotated keys share their name: each is named apart (prefix, day made, replaced or current).
  const keyNames = keyLabels(keys);
  const jobNames = new Map(jobs.map((j) => [j.job_id, j.label]));
  const names = loaded.names;

  const whoSel = h('select', { id: 'audit-who', name: 'principal' },
    h('option', { value: '' }, 'Anyone'),
    h('optgroup', { label: 'API keys' }, keys.map((k) => h('option', { value: k.key_id, selected: q.get('principal') === k.key_id }, keyNames.get(k.key_id)))));
  const email = h('input', { type: 'email', id: 'audit-email', name: 'email', value: q.get('principal')?.includes('@') ? q.get('principal') : '', placeholder: 'or a console user: name@example.com', autocomplete: 'off' });
  const action = h('input', { type: 'text', id: 'audit-action', name: 'action', value: q.get('action') ?? '', placeholder: 'runs.create', spellcheck: 'false' });
  const outcomeSel = select([{ value: '', label: 'Any' }, 'allowed', 'denied', 'error'], q.get('outcome') ?? '', { id: 'audit-outcome', name: 'outcome' });
  const since = h('input', { type: 'datetime-local', id: 'audit-since', name: 'since', value: toLocal(q.get('since')) });
  const until = h('input', { type: 'datetime-local', id: 'audit-until', name: 'until', value: toLocal(q.get('until')) });
  const reads = h('input', { type: 'checkbox', id: 'audit-reads', name: 'reads', checked: q.get('reads') === 'include' });
  const filter = h('button', { type: 'submit', class: 'btn', id: 'audit-filter' }, 'Filter');
  const form = h('form', { class: 'inline-form', role: 'search', 'aria-label': 'Filter the audit log' },
    field('Who', whoSel), field('Console user', email), field('Action', action), field('Outcome', outcomeSel), field('From', since), field('To', until),
    h('div', { class: 'field' }, h('label', { class: 'check', for: reads.id }, reads, ' Include reads (page views, GET calls)')),
    h('div', { class: 'field' }, filter));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const p = new URLSearchParams();
    const who = email.value.trim() || whoSel.value;
    if (who) p.set('principal', who);
    if (action.value.trim()) p.set('action', action.value.trim());
    if (outcomeSel.value) p.set('outcome', outcomeSel.value);
    if (since.value) p.set('since', toIso(since.value));
    if (until.value) p.set('until', toIso(until.value));
    if (reads.checked) p.set('reads', 'include');
    ctx.navigate(`#/settings/audit${p.toString() ? `?${p}` : ''}`);
  });

  const who = (pr) => {
    if (!pr) return '—';
    if (pr.type === 'user') return h('div', { class: 'name-id' }, h('span', {}, pr.email ?? 'console user'), idChip(pr.id, 'user id'));
    if (pr.type === 'key') return h('div', { class: 'name-id' }, h('span', {}, keyNames.get(pr.id) ?? 'API key (deleted or unknown)'), idChip(pr.id, 'key id'));
    return h('span', {}, pr.type === 'system' ? 'Gleaner (scheduler)' : pr.type);
  };
  /** A resource by name: a page, a key, a job, a runbook, a run; anything else as recorded. */
  const resource = (r) => {
    const v = r.resource;
    if (!v) return '—';
    if (r.action === 'console.view' || v.startsWith('/')) return h('span', {}, 'Page ', h('a', { href: `#${v}` }, v));
    const named = (label, href, what) => h('div', { class: 'name-id' }, href ? h('a', { href }, label) : h('span', {}, label), idChip(v, what));
    if (v.startsWith('key_')) return named(keyNames.get(v) ?? 'API key', null, 'key id');
    if (v.startsWith('job_')) return named(jobNames.has(v) ? `job “${jobNames.get(v)}”` : 'job', `#/jobs/${encodeURIComponent(v)}`, 'job id');
    if (v.startsWith('rbk_')) return named(names.has(v) ? `runbook “${names.get(v)}”` : 'runbook', `#/studio/${encodeURIComponent(v)}`, 'runbook id');
    if (v.startsWith('run_')) return named('a run', `#/runs/${encodeURIComponent(v)}`, 'run id');
    if (v.startsWith('qry_')) return named('a query', `#/queries/${encodeURIComponent(v)}`, 'query id');
    return h('span', { class: 'break' }, v);
  };
  const t = table(
    [
      { label: 'Time', render: (r) => time(r.ts) },
      { label: 'Who', render: (r) => who(r.principal) },
      { label: 'Where', render: (r) => ({ api: 'API', console: 'Console', mcp: 'MCP', scheduler: 'Scheduler' })[r.surface] ?? r.surface },
      { label: 'Action', render: (r) => (r.action === 'console.view' ? 'Viewed a page' : h('code', {}, r.action)) },
      { label: 'Resource', render: resource },
      // The outcome in a word; the HTTP status on hover.
      { label: 'Outcome', render: (r) => h('span', { title: `HTTP ${r.status}` }, badge(r.outcome, r.outcome === 'allowed' ? 'succeeded' : r.outcome === 'denied' ? 'blocked' : 'failed')) },
      { label: 'IP', render: (r) => r.ip ?? '—' },
      { label: 'Request', render: (r) => h('span', { class: 'mono small' }, r.request_id) },
    ],
    { caption: 'Audit records', empty: q.get('reads') === 'include' ? 'No audit records match.' : 'No changes match. Reads (page views, GET calls) are left out: tick "Include reads" to see them.' },
  );
  const query = {
    action: q.get('action') || undefined,
    outcome: q.get('outcome') || undefined,
    principal: q.get('principal') || undefined,
    since: q.get('since') || undefined,
    until: q.get('until') || undefined,
    reads: q.get('reads') === 'include' ? 'include' : 'exclude',
  };
  const p = pager((cursor) => get('/dashboard/api/audit', { ...query, cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  body.append(form, section(query.reads === 'exclude' ? 'Changes (newest first; reads left out)' : 'Records (newest first)', t.el, p.el));
  await busy(filter, () => p.first(), 'Audit log');
}
