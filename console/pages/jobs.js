// Jobs: any scraper (or published runbook) with an input, or a social query, on a 5-field cron
// in a time zone. List, create (with "Track changes"), edit (schedule, time zone, input, label,
// webhook, status), pause/resume, run now, delete, and the job's runs (live while unfinished).
import { h, clear, field, table, dl, badge, time, truncate } from '../lib/dom.js';
import { del, get, patch, post, seg } from '../lib/api.js';
import { busy, groupNav, idChip, pageHeader, pager, section, showError, showNotice } from '../lib/ui.js';
import { formErrors } from '../lib/form-errors.js';
import { liveLoop } from '../lib/run-extras.js';
import { scraperInput } from '../lib/scraper-input.js';
import { queryFields, queryStatus } from './queries.js';
import { exampleFor, runDuration, runTarget, scraperNames, statusBadge } from './runs.js';
import { ownDeliveries } from './webhooks.js';
import { failureWords, windowWords, zonedWords } from '../lib/words.js';

const TERMINAL = new Set(['succeeded', 'failed', 'timed_out', 'cancelled', 'blocked', 'completed']);
const jobBadge = (s) => badge(s, s === 'active' ? 'succeeded' : 'cancelled');
/** Why the scheduler paused a job (its key was revoked, expired or lost a scope), or why its latest fire started nothing. */
const jobNote = (j) =>
  j.status_reason
    ? h('span', { class: 'hint block job-note', title: j.status_reason }, `Paused by the scheduler: ${j.status_reason}`)
    : j.last_skip
      ? h('span', { class: 'hint block job-note', title: j.last_skip.message }, `Last fire skipped (${j.last_skip.reason.replaceAll('_', ' ')})`)
      : null;
const kindOf = (j) => j.kind ?? (j.scraper_id ? 'run' : 'query');
const tracksChanges = (j) => Array.isArray(j.input?.formats) && j.input.formats.includes('changes');

/** The browser's IANA time zone names (and UTC first), for the time zone choice. */
function zones() {
  let list;
  try {
    list = Intl.supportedValuesOf('timeZone');
  } catch {
    list = [];
  }
  return ['UTC', ...list.filter((z) => z !== 'UTC')];
}
const localZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

function zoneSelect(id, value) {
  return h('select', { id, name: 'timezone' }, zones().map((z) => h('option', { value: z, selected: z === value }, z)));
}

/** "0 8 * * 1-5" in words for the common shapes; null when it is not one of them. */
export function cronWords(expr) {
  const f = String(expr ?? '').trim().split(/\s+/);
  if (f.length !== 5) return null;
  const [mi, ho, dom, mon, dow] = f;
  const at = /^\d+$/.test(mi) && /^\d+$/.test(ho) ? `at ${ho.padStart(2, '0')}:${mi.padStart(2, '0')}` : null;
  const days = { '*': 'every day', '1-5': 'on weekdays', '0,6': 'on weekends', 0: 'on Sundays', 1: 'on Mondays', 2: 'on Tuesdays', 3: 'on Wednesdays', 4: 'on Thursdays', 5: 'on Fridays', 6: 'on Saturdays', 7: 'on Sundays' };
  if (at && dom === '*' && mon === '*' && days[dow]) return `${days[dow][0].toUpperCase()}${days[dow].slice(1)} ${at}`;
  if (at && /^\d+$/.test(dom) && mon === '*' && dow === '*') return `On day ${dom} of each month ${at}`;
  if (/^\d+$/.test(mi) && ho === '*' && dom === '*' && mon === '*' && dow === '*') return `Every hour at minute ${mi}`;
  const every = /^\*\/(\d+)$/.exec(mi);
  if (every && ho === '*' && dom === '*' && mon === '*' && dow === '*') return `Every ${every[1]} minutes`;
  return null;
}

/** When a job runs next, in its own zone and the viewer's, in words (the exact moment on hover). */
const nextRun = (j) => (j.next_run_at ? h('time', { datetime: j.next_run_at, class: 'next-run' }, zonedWords(j.next_run_at, j.timezone)) : j.status === 'paused' ? 'paused' : '—');

/** A run's change-tracking counts: "2 new · 1 changed · 5 same" (only the non-zero ones), or "—". */
export function changeCounts(r) {
  const c = r.stats?.changes;
  if (!c) return '—';
  const parts = [['new', 'succeeded'], ['changed', 'running'], ['removed', 'failed'], ['same', 'cancelled'], ['unavailable', 'blocked']]
    .filter(([k]) => c[k])
    .map(([k, kind]) => h('span', { class: ['badge', `badge-${kind}`, 'change-count'] }, `${c[k]} ${k}`));
  return parts.length ? h('span', { class: 'change-counts' }, parts) : 'nothing compared';
}

/** A failure in words, the service's own words on hover. */
const failureText = (e) => {
  const w = failureWords(e);
  return h('span', { title: w.detail }, truncate(w.text, 120));
};

const scheduleText = (j) => h('span', {}, h('code', {}, j.schedule), ' ', h('span', { class: 'hint' }, `${cronWords(j.schedule) ?? ''}${cronWords(j.schedule) ? ', ' : ''}${j.timezone ?? 'UTC'}`));

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
    const runId = r.run_id ?? (r.id?.startsWith?.('run_') ? r.id : null);
    showNotice(`Job ${job.label} started`);
    if (runId) ctx.navigate(`#/runs/${encodeURIComponent(runId)}`);
    else if (r.query_id) ctx.navigate(`#/queries/${encodeURIComponent(r.query_id)}`);
    else onChange(job);
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

/** Sources without credentials, from the social overview (admins); an empty set when unknown. */
async function unconfiguredSources(signal) {
  try {
    const data = await get('/dashboard/api/social', {}, { signal, quiet: true });
    return new Set((data.sources ?? []).filter((s) => s.configured === false).map((s) => s.source));
  } catch {
    return new Set();
  }
}

/** Why an active query job cannot do its work: its sources have no credentials. */
const queryJobProblem = (j, unconfigured) => {
  if (kindOf(j) !== 'query') return null;
  const missing = (j.sources ?? []).filter((s) => unconfigured.has(s));
  if (!missing.length) return null;
  return missing.length === (j.sources ?? []).length ? `Cannot run: no credentials for ${missing.join(', ')}` : `No credentials for ${missing.join(', ')}: skipped`;
};

/** The "New job" form: a scraper job (any scraper, its input form, Track changes) or a social query job. */
function newJobForm(ctx, scrapers, onCreated) {
  const label = h('input', { type: 'text', id: 'job-label', name: 'label', maxlength: '200', required: true, placeholder: 'Daily price check' });
  const kindRun = h('input', { type: 'radio', id: 'job-kind-run', name: 'job-kind', value: 'run', checked: true });
  const kindQuery = h('input', { type: 'radio', id: 'job-kind-query', name: 'job-kind', value: 'query' });
  const si = scraperInput({ idPrefix: 'job', scrapers, example: (s) => exampleFor(s) });
  const q = queryFields({ idPrefix: 'job' });
  const queryBox = h('div', { hidden: true, id: 'job-query-fields' }, q.els);
  const cron = h('input', { type: 'text', id: 'job-schedule', name: 'schedule', value: '0 8 * * *', required: true, class: 'mono', spellcheck: 'false' });
  const cronHint = h('small', { class: 'hint', id: 'job-schedule-words', 'aria-live': 'polite' });
  const tz = zoneSelect('job-timezone', localZone());
  const webhook = h('input', { type: 'url', id: 'job-webhook', name: 'webhook_url', placeholder: 'https://… (optional)' });
  const create = h('button', { type: 'submit', class: 'btn btn-primary', id: 'job-create' }, 'Create job');
  const showCron = () => {
    cronHint.textContent = `Five fields: minute hour day-of-month month day-of-week, read in the time zone below. ${cronWords(cron.value) ? `Reads as: ${cronWords(cron.value)}.` : ''}`;
  };
  cron.addEventListener('input', showCron);
  showCron();
  const runBox = h('div', { id: 'job-run-fields' }, si.el);
  const form = h('form', { class: 'form', 'aria-label': 'New job', novalidate: true },
    field('Label', label),
    h('fieldset', { class: 'field checks' }, h('legend', {}, 'What the job does'),
      h('div', { class: 'check-row' },
        h('label', { class: 'check', for: kindRun.id }, kindRun, ' Run a scraper'),
        h('label', { class: 'check', for: kindQuery.id }, kindQuery, ' Social query'))),
    runBox, queryBox,
    h('div', { class: 'row' },
      h('div', { class: 'field', dataset: { field: 'schedule' } }, h('label', { for: cron.id }, 'Schedule (cron)'), cron, cronHint),
      h('div', { class: 'field', dataset: { field: 'timezone' } }, h('label', { for: tz.id }, 'Time zone'), tz, h('small', { class: 'hint' }, 'Daylight-saving changes included.'))),
    h('div', { class: 'field', dataset: { field: 'webhook_url' } }, h('label', { for: webhook.id }, 'Webhook URL'), webhook, h('small', { class: 'hint' }, 'Optional: receives job.completed after each run (and page.changed for each changed page).')),
    h('div', { class: 'form-actions' }, create));
  cron.setAttribute('aria-describedby', cronHint.id);
  const errors = formErrors(form, { prefix: 'input.' });
  form.insertBefore(errors.el, form.lastElementChild);
  const kind = () => (kindQuery.checked ? 'query' : 'run');
  const showKind = () => {
    runBox.hidden = kind() !== 'run';
    queryBox.hidden = kind() !== 'query';
  };
  kindRun.addEventListener('change', showKind);
  kindQuery.addEventListener('change', showKind);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    errors.clear();
    let body;
    try {
      body = { label: label.value.trim(), schedule: cron.value.trim(), timezone: tz.value };
      if (!body.label) throw Object.assign(new Error('Label: give the job a name'), { input: label });
      if (kind() === 'run') Object.assign(body, si.get());
      else {
        Object.assign(body, q.body());
        if (!body.sources.length) throw Object.assign(new Error('Sources: tick at least one source with credentials'), { input: q.sources.boxes[0]?.input });
      }
      if (webhook.value.trim()) body.webhook_url = webhook.value.trim();
    } catch (err) {
      errors.show(err, 'Not created');
      err.input?.focus();
      return;
    }
    busy(create, async () => {
      let j;
      try {
        j = await post('/v1/jobs', body);
      } catch (err) {
        errors.show(err, 'Not created');
        return;
      }
      showNotice(`Job ${j.label} created; next run ${j.next_run_at ? zonedWords(j.next_run_at, j.timezone) : 'not scheduled'}`);
      onCreated(j);
    }, 'Create job');
  });
  return { el: form, focus: () => label.focus() };
}

export async function jobsList(page, ctx) {
  const loaded = await scraperNames(ctx.signal).catch(() => ({ names: new Map(), scrapers: [] }));
  const names = loaded.names;
  let unconfigured = new Set();
  const t = table(
    [
      { label: 'Job', class: 'wide', render: (j) => h('div', { class: 'name-id' }, h('a', { href: `#/jobs/${encodeURIComponent(j.job_id)}` }, j.label), h('span', { class: 'hint' }, kindOf(j) === 'run' ? `Runs ${names.get(j.scraper_id) ?? j.scraper_id}` : 'Social query')) },
      { label: 'What', render: (j) => (kindOf(j) === 'run' ? h('span', { class: 'break' }, truncate(runTarget(j.input) ?? '', 60), tracksChanges(j) ? h('span', { class: 'badge badge-running', title: 'Each run reports what changed' }, 'tracks changes') : null) : truncate(j.prompt, 60)) },
      { label: 'Schedule', render: scheduleText },
      {
        label: 'Status',
        render: (j) => {
          const problem = j.status === 'active' ? queryJobProblem(j, unconfigured) : null;
          return h('span', {}, jobBadge(j.status), problem ? h('span', { class: 'badge badge-http-error', title: problem }, problem) : null, jobNote(j));
        },
      },
      { label: 'Next run', render: (j) => nextRun(j) },
      { label: 'Last run', render: (j) => (j.last_run ? h('a', { href: j.last_run.run_id ? `#/runs/${encodeURIComponent(j.last_run.run_id)}` : `#/queries/${encodeURIComponent(j.last_run.query_id)}` }, time(j.last_run.started_at ?? j.last_run.created_at)) : '—') },
      { label: 'Actions', render: (j) => jobActions(j, ctx, () => p.first().catch((e) => showError(e, 'Jobs'))) },
    ],
    { caption: 'Jobs', empty: 'No jobs yet. Create one with "New job".' },
  );
  const p = pager((cursor) => get('/v1/jobs', { cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Jobs'));
  const open = ctx.query.has('new');
  const newJob = h('button', { type: 'button', class: 'btn btn-primary', id: 'jobs-new', 'aria-expanded': String(open), 'aria-controls': 'new-job' }, 'New job');
  const form = newJobForm(ctx, loaded.scrapers ?? [], async (j) => {
    ctx.navigate(`#/jobs/${encodeURIComponent(j.job_id)}`);
  });
  const formCard = h('section', { class: 'card', id: 'new-job', 'aria-labelledby': 'new-job-title', hidden: !open }, h('h2', { id: 'new-job-title' }, 'New job'), form.el);
  newJob.addEventListener('click', () => {
    formCard.hidden = !formCard.hidden;
    newJob.setAttribute('aria-expanded', String(!formCard.hidden));
    if (!formCard.hidden) form.focus();
  });
  page.append(
    pageHeader('Jobs', refresh, newJob),
    groupNav('runs', 'jobs'),
    h('p', { class: 'lead' }, 'A job runs a scraper (or a social query) on a schedule in your time zone. With "Track changes", each run reports the pages that are new, changed or removed since the last one: see ', h('a', { href: '#/changes' }, 'Changes'), '.'),
    formCard,
    section('Jobs', t.el, p.el),
  );
  if (open) form.focus();
  unconfigured = await unconfiguredSources(ctx.signal);
  await busy(refresh, () => p.first(), 'Jobs');
}

/** The edit form of a job: label, schedule, time zone, status, webhook, and the input of a run job. */
function editJobForm(j, scrapers, onSaved) {
  const label = h('input', { type: 'text', id: 'edit-label', maxlength: '200', required: true, value: j.label });
  const cron = h('input', { type: 'text', id: 'edit-schedule', class: 'mono', spellcheck: 'false', value: j.schedule });
  const tz = zoneSelect('edit-timezone', j.timezone ?? 'UTC');
  const status = h('select', { id: 'edit-status' }, ['active', 'paused'].map((s) => h('option', { value: s, selected: j.status === s }, s === 'active' ? 'Active (runs on schedule)' : 'Paused')));
  const webhook = h('input', { type: 'url', id: 'edit-webhook', value: j.webhook_url ?? '', placeholder: 'https://… (optional)' });
  const si = kindOf(j) === 'run' ? scraperInput({ idPrefix: 'edit', scrapers }) : null;
  if (si) {
    si.set(j.scraper_id, j.input ?? {});
    si.fixScraper();
  }
  const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'edit-save' }, 'Save changes');
  const form = h('form', { class: 'form', 'aria-label': 'Edit job', novalidate: true },
    h('div', { class: 'row' },
      h('div', { class: 'field', dataset: { field: 'label' } }, h('label', { for: label.id }, 'Label'), label),
      h('div', { class: 'field', dataset: { field: 'status' } }, h('label', { for: status.id }, 'Status'), status)),
    h('div', { class: 'row' },
      h('div', { class: 'field', dataset: { field: 'schedule' } }, h('label', { for: cron.id }, 'Schedule (cron)'), cron),
      h('div', { class: 'field', dataset: { field: 'timezone' } }, h('label', { for: tz.id }, 'Time zone'), tz)),
    si ? si.el : null,
    h('div', { class: 'field', dataset: { field: 'webhook_url' } }, h('label', { for: webhook.id }, 'Webhook URL'), webhook),
    h('div', { class: 'form-actions' }, save));
  const errors = formErrors(form, { prefix: 'input.' });
  form.insertBefore(errors.el, form.lastElementChild);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    errors.clear();
    const body = {};
    try {
      if (label.value.trim() !== j.label) body.label = label.value.trim();
      if (cron.value.trim() !== j.schedule) body.schedule = cron.value.trim();
      if (tz.value !== (j.timezone ?? 'UTC')) body.timezone = tz.value;
      if (status.value !== j.status) body.status = status.value;
      if (webhook.value.trim() !== (j.webhook_url ?? '')) body.webhook_url = webhook.value.trim() || null;
      if (si) {
        const { input } = si.get();
        if (JSON.stringify(input) !== JSON.stringify(j.input ?? {})) body.input = input;
      }
    } catch (err) {
      errors.show(err, 'Not saved');
      err.input?.focus();
      return;
    }
    if (!Object.keys(body).length) {
      showNotice('Nothing changed');
      return;
    }
    busy(save, async () => {
      let next;
      try {
        next = await patch(`/v1/jobs/${seg(j.job_id)}`, body);
      } catch (err) {
        errors.show(err, 'Not saved');
        return;
      }
      showNotice(`Saved job ${next.label}`);
      onSaved(next);
    }, 'Save job');
  });
  return form;
}

export async function jobDetail(page, ctx) {
  const id = ctx.params.id;
  const info = h('div', {}, h('p', { class: 'loading' }, 'Loading…'));
  const editHost = h('div', { id: 'job-edit' });
  const loaded = await scraperNames(ctx.signal).catch(() => ({ names: new Map(), scrapers: [] }));
  const names = loaded.names;
  const runRows = table(
    [
      { label: 'Run', class: 'wide', render: (r) => (r.query_id ? h('a', { href: `#/queries/${encodeURIComponent(r.query_id)}`, class: 'mono' }, r.query_id) : h('div', { class: 'name-id' }, h('a', { href: `#/runs/${encodeURIComponent(r.id)}` }, truncate(runTarget(r.input) ?? names.get(r.scraper_id) ?? r.id, 70)), idChip(r.id, 'run id'))) },
      { label: 'Status', render: (r) => (r.query_id ? queryStatus(r.status) : statusBadge(r.status)) },
      { label: 'Items', render: (r) => (r.progress ? String(r.progress.items ?? 0) : '—') },
      { label: 'Changes', render: (r) => changeCounts(r) },
      { label: 'Started', render: (r) => time(r.created_at) },
      { label: 'Duration', render: (r) => (r.query_id ? time(r.completed_at) : runDuration(r)) },
      { label: 'Error', render: (r) => (r.error ? failureText(r.error) : '') },
    ],
    { caption: 'Runs of this job', empty: 'No runs yet: the job runs at its next scheduled time, or use "Run now".' },
  );
  let shown = [];
  const p = pager((cursor) => get(`/v1/jobs/${seg(id)}/runs`, { cursor, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) {
      runRows.reset();
      shown = [];
    }
    shown.push(...rows);
    runRows.add(rows);
  });
  const show = (j) => {
    if (!j) {
      ctx.navigate('#/jobs');
      return;
    }
    title.textContent = j.label;
    const run = kindOf(j) === 'run';
    const problem = j.status === 'active' ? queryJobProblem(j, unconfigured) : null;
    clear(info).append(
      dl([
        ['Status', h('span', {}, jobBadge(j.status), problem ? h('span', { class: 'badge badge-http-error' }, problem) : null, j.last_skip && !j.status_reason ? h('span', { class: 'hint block job-note' }, j.last_skip.message) : jobNote(j))],
        run ? ['Scraper', names.get(j.scraper_id) ?? j.scraper_id] : ['Prompt', j.prompt],
        run ? ['Target', runTarget(j.input) ?? '—'] : ['Sources', (j.sources ?? []).join(', ')],
        run ? ['Track changes', tracksChanges(j) ? h('span', {}, `Yes (tag ${j.input?.change_options?.tag ?? 'default'}) · `, h('a', { href: `#/changes?job_id=${encodeURIComponent(j.job_id)}` }, 'Changes found by this job →')) : 'No'] : ['Time window', windowWords(j.time_window)],
        ['Schedule', scheduleText(j)],
        ['Webhook URL', j.webhook_url ?? '—'],
        ['Next run', nextRun(j)],
        ['Created', time(j.created_at)],
      ]),
      jobActions(j, ctx, (x) => (x === j ? p.first() : x ? show(x) : show(null))),
      run ? null : h('p', {}, h('a', { href: `#/storage?job_id=${encodeURIComponent(j.job_id)}` }, 'Stored results of this job →')),
    );
    clear(editHost).append(h('details', { class: 'sub', id: 'job-edit-box' },
      h('summary', {}, 'Edit this job', h('span', { class: 'hint' }, run ? ' (schedule, time zone, input, label, status, webhook)' : ' (schedule, time zone, label, status, webhook)')),
      editJobForm(j, loaded.scrapers ?? [], show)));
  };
  const deliveries = ownDeliveries(`/v1/jobs/${seg(id)}/deliveries`, ctx, {
    id: 'job-deliveries',
    empty: 'No webhook deliveries yet. When the job has a webhook URL, each run sends job.completed to it.',
    intro: 'Deliveries of job.completed to this job\'s own webhook URL (signed with the tenant\'s job-webhook secret).',
  });
  const title = h('h1', { tabindex: '-1', class: 'break' }, 'Job');
  const liveNote = h('span', { class: 'hint', 'aria-live': 'off' });
  page.append(h('div', { class: 'page-head' }, title), h('p', { class: 'subtitle' }, 'Job ', idChip(id, 'job id')), h('p', {}, h('a', { href: '#/jobs' }, '← All jobs')), section('Job', info, editHost), section('Runs', liveNote, runRows.el, p.el), deliveries.el);
  let unconfigured = new Set();
  try {
    const [j, u] = await Promise.all([get(`/v1/jobs/${seg(id)}`, {}, { signal: ctx.signal }), unconfiguredSources(ctx.signal)]);
    unconfigured = u;
    show(j);
  } catch (err) {
    clear(info).append(h('p', { class: 'load-error' }, `Could not load job ${id}.`));
    showError(err, 'Job');
    return;
  }
  await Promise.all([busy(null, () => p.first(), 'Job runs'), deliveries.load()]);
  // Live: the job's runs (a scheduled one starts while the page is open) every 2 s while visible.
  let last = JSON.stringify(shown.map((r) => [r.id ?? r.query_id, r.status, r.progress]));
  await liveLoop(ctx.signal, 2000, async () => {
    if (shown.length > 25) return;
    const res = await get(`/v1/jobs/${seg(id)}/runs`, { limit: 25 }, { signal: ctx.signal });
    const rows = res.data ?? [];
    const now = JSON.stringify(rows.map((r) => [r.id ?? r.query_id, r.status, r.progress]));
    const unfinished = rows.some((r) => !TERMINAL.has(r.status));
    liveNote.textContent = unfinished ? 'Live: updated every 2 s.' : '';
    if (now === last && !unfinished) return;
    last = now;
    runRows.reset();
    shown = [...rows];
    runRows.add(rows);
  });
}
