// Jobs: recurring queries (5-field UTC cron). List, create, pause/resume, run now, delete, runs.
import { h, clear, field, table, dl, badge, time, truncate } from '../lib/dom.js';
import { del, get, patch, post, seg } from '../lib/api.js';
import { busy, groupNav, idChip, pageHeader, pager, section, showError, showNotice } from '../lib/ui.js';
import { queryFields, queryStatus } from './queries.js';
import { ownDeliveries } from './webhooks.js';

const jobBadge = (s) => badge(s, s === 'active' ? 'succeeded' : 'cancelled');

function jobActions(job, ctx, onChange) {
  const toggle = h('button', { type: 'button', class: 'btn btn-small' }, job.status === 'active' ? 'Pause' : 'Resume');
  toggle.addEventListener('click', () => busy(toggle, async () => {
    const j = await patch(`/v1/jobs/${seg(job.job_id)}`, { status: job.status === 'active' ? 'paused' : 'active' });
    showNotice(`Job ${j.label} is ${j.status}`);
    onChange(j);
  }, 'Update job'));
  const run = h('button', { type: 'button', class: 'btn btn-small' }, 'Run now');
  run.addEventListener('click', () => busy(run, async () => {
    const r = await post(`/v1/jobs/${seg(job.job_id)}/run`);
    showNotice(`Started ${r.query_id}`);
    ctx.navigate(`#/queries/${encodeURIComponent(r.query_id)}`);
  }, 'Run job'));
  const rm = h('button', { type: 'button', class: 'btn btn-small btn-danger' }, 'Delete');
  rm.addEventListener('click', () => {
    if (!confirm(`Delete job "${job.label}"? Its schedule stops; stored results stay.`)) return;
    busy(rm, async () => {
      await del(`/v1/jobs/${seg(job.job_id)}`);
      showNotice(`Deleted job ${job.label}`);
      onChange(null);
    }, 'Delete job');
  });
  return h('div', { class: 'actions' }, toggle, run, rm);
}

export async function jobsList(page, ctx) {
  const label = h('input', { type: 'text', id: 'job-label', name: 'label', maxlength: '200', required: true, placeholder: 'Daily brand mentions' });
  const f = queryFields({ idPrefix: 'job' });
  const cron = h('input', { type: 'text', id: 'job-schedule', name: 'schedule', value: '0 8 * * *', required: true, class: 'mono', spellcheck: 'false' });
  const webhook = h('input', { type: 'url', id: 'job-webhook', name: 'webhook_url', placeholder: 'https://… (optional)' });
  const create = h('button', { type: 'submit', class: 'btn btn-primary', id: 'job-create' }, 'Create job');
  const form = h('form', { class: 'form', 'aria-label': 'New job' },
    field('Label', label),
    f.els,
    h('div', { class: 'row' },
      field('Schedule (cron, UTC)', cron, 'Five fields: minute hour day-of-month month day-of-week. "0 8 * * *" = daily at 08:00 UTC.'),
      field('Webhook URL', webhook, 'Optional: receives job.completed after each run.')),
    h('div', { class: 'form-actions' }, create));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(create, async () => {
      const body = { label: label.value, ...f.body(), schedule: cron.value };
      if (webhook.value.trim()) body.webhook_url = webhook.value.trim();
      const j = await post('/v1/jobs', body);
      showNotice(`Job ${j.label} created; next run ${j.next_run_at ?? '—'}`);
      form.reset();
      cron.value = '0 8 * * *';
      await p.first();
    }, 'Create job');
  });

  const t = table(
    [
      { label: 'Job', render: (j) => h('a', { href: `#/jobs/${encodeURIComponent(j.job_id)}` }, j.label) },
      { label: 'Prompt', render: (j) => truncate(j.prompt, 60) },
      { label: 'Schedule', render: (j) => h('code', {}, j.schedule) },
      { label: 'Status', render: (j) => jobBadge(j.status) },
      { label: 'Next run', render: (j) => time(j.next_run_at) },
      { label: 'Last run', render: (j) => (j.last_run ? h('a', { href: `#/queries/${encodeURIComponent(j.last_run.query_id)}` }, time(j.last_run.started_at)) : '—') },
      { label: 'Actions', render: (j) => jobActions(j, ctx, () => p.first().catch((e) => showError(e, 'Jobs'))) },
    ],
    { caption: 'Jobs', empty: 'No jobs yet.' },
  );
  const p = pager((cursor) => get('/v1/jobs', { cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Jobs'));
  page.append(
    pageHeader('Jobs', refresh),
    groupNav('social', 'jobs'),
    h('p', { class: 'lead' }, 'A job runs a query on a schedule; each run stores <query_id>_<timestamp>.json in Storage and can notify a webhook.'),
    section('Jobs', t.el, p.el),
    h('details', { class: 'card' }, h('summary', {}, h('span', { class: 'h2' }, 'Create a job')), form),
  );
  await busy(refresh, () => p.first(), 'Jobs');
}

export async function jobDetail(page, ctx) {
  const id = ctx.params.id;
  const info = h('div', {}, h('p', { class: 'loading' }, 'Loading…'));
  const runs = table(
    [
      { label: 'Query', render: (q) => h('a', { href: `#/queries/${encodeURIComponent(q.query_id)}`, class: 'mono' }, q.query_id) },
      { label: 'Status', render: (q) => queryStatus(q.status) },
      { label: 'Created', render: (q) => time(q.created_at) },
      { label: 'Completed', render: (q) => time(q.completed_at) },
      { label: 'Error', render: (q) => truncate(q.error ?? '', 120) },
    ],
    { caption: 'Runs of this job', empty: 'No runs yet.' },
  );
  const p = pager((cursor) => get(`/v1/jobs/${seg(id)}/runs`, { cursor, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) runs.reset();
    runs.add(rows);
  });
  const show = (j) => {
    if (!j) {
      ctx.navigate('#/jobs');
      return;
    }
    title.textContent = j.label;
    clear(info).append(
      dl([
        ['Label', j.label],
        ['Status', jobBadge(j.status)],
        ['Prompt', j.prompt],
        ['Sources', (j.sources ?? []).join(', ')],
        ['Schedule', h('code', {}, j.schedule)],
        ['Time window', j.time_window ? JSON.stringify(j.time_window) : 'default'],
        ['Limit', String(j.limit)],
        ['Webhook URL', j.webhook_url ?? '—'],
        ['Next run', time(j.next_run_at)],
        ['Created', time(j.created_at)],
      ]),
      jobActions(j, ctx, show),
      h('p', {}, h('a', { href: `#/storage?job_id=${encodeURIComponent(j.job_id)}` }, 'Stored results of this job →')),
    );
  };
  const deliveries = ownDeliveries(`/v1/jobs/${seg(id)}/deliveries`, ctx, {
    id: 'job-deliveries',
    empty: 'No webhook deliveries yet. When the job has a webhook URL, each run sends job.completed to it.',
    intro: 'Deliveries of job.completed to this job\'s own webhook URL (signed with the tenant\'s job-webhook secret).',
  });
  const title = h('h1', { tabindex: '-1', class: 'break' }, 'Job');
  page.append(h('div', { class: 'page-head' }, title), h('p', { class: 'subtitle' }, 'Job ', idChip(id, 'job id')), h('p', {}, h('a', { href: '#/jobs' }, '← All jobs')), section('Job', info), section('Runs', runs.el, p.el), deliveries.el);
  try {
    show(await get(`/v1/jobs/${seg(id)}`, {}, { signal: ctx.signal }));
  } catch (err) {
    clear(info).append(h('p', { class: 'load-error' }, `Could not load job ${id}.`));
    showError(err, 'Job');
    return;
  }
  await Promise.all([busy(null, () => p.first(), 'Job runs'), deliveries.load()]);
}
