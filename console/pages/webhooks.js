// Webhooks: registered endpoints (secret shown once), enable/disable, delete, delivery log with
// retry; and the "Webhook deliveries" section of a job's or run's own webhook_url (jobs.js, runs.js).
import { h, clear, field, checkboxGroup, table, dl, badge, time, truncate, sleep, isAbort } from '../lib/dom.js';
import { del, get, patch, post, seg } from '../lib/api.js';
import { errorsAt, submitForm } from '../lib/form-errors.js';
import { busy, jsonView, pageHeader, pager, secretBox, section, showError, showNotice } from '../lib/ui.js';

const EVENTS = ['job.completed', 'run.completed'];

const deliveryBadge = (s) => badge(s, s === 'pending' ? 'queued' : s);

/** The payload and attempt log of a delivery, folded. */
const deliveryDetails = (d) => h('details', {}, h('summary', {}, 'Payload and attempts'), jsonView({ payload: d.payload, attempts: d.attempt_log }, { label: 'Delivery' }));

/** Columns shared by the delivery logs: event, status, attempts, last answer, time. */
const deliveryColumns = () => [
  { label: 'Event', render: (d) => d.event },
  {
    label: 'Status',
    render: (d) => [deliveryBadge(d.status), d.status === 'pending' && d.next_attempt_at ? h('small', { class: 'hint' }, ' next ', time(d.next_attempt_at)) : null],
  },
  { label: 'Attempts', render: (d) => String(d.attempts) },
  { label: 'Last HTTP', render: (d) => (d.last_status_code === null || d.last_status_code === undefined ? '—' : String(d.last_status_code)) },
  { label: 'Last error', render: (d) => truncate(d.last_error ?? '', 100) },
  { label: 'Created', render: (d) => time(d.created_at) },
];

export async function webhooksList(page, ctx) {
  const url = h('input', { type: 'url', id: 'webhook-url', name: 'url', required: true, placeholder: 'https://hooks.example.com/gleaner' });
  const events = checkboxGroup('Events', EVENTS, { checked: ['job.completed'], name: 'webhook-events' });
  const create = h('button', { type: 'submit', class: 'btn btn-primary', id: 'webhook-create' }, 'Register webhook');
  const secretHost = h('div', { id: 'webhook-secret' });
  const form = h('form', { class: 'form', 'aria-label': 'Register a webhook' },
    errorsAt('url', field('Endpoint URL', url, 'HTTPS endpoint that receives POST callbacks (Standard Webhooks signatures).')),
    errorsAt('events', events.el),
    h('div', { class: 'form-actions' }, create));
  submitForm(form, create, 'Not registered', async () => {
    if (!events.values().length) throw Object.assign(new Error('Events: tick at least one event'), { input: events.boxes[0]?.input });
    const w = await post('/v1/webhooks', { url: url.value.trim(), events: events.values() });
    clear(secretHost).append(secretBox(`Signing secret for ${w.url}`, w.secret, 'Use it to verify the webhook-signature header. It is shown only once.'));
    url.value = '';
    showNotice('Webhook registered');
    await p.first();
  });

  const t = table(
    [
      { label: 'Endpoint', render: (w) => h('a', { href: `#/webhooks/${encodeURIComponent(w.webhook_id)}`, class: 'break' }, w.url) },
      { label: 'Events', render: (w) => (w.events ?? []).join(', ') },
      {
        label: 'Status',
        render: (w) => h('div', { class: 'webhook-status' },
          badge(w.status, w.status === 'enabled' ? 'succeeded' : 'failed'),
          w.status === 'disabled' && w.disabled_reason ? h('small', { class: 'hint' }, ` ${w.disabled_reason}`) : null,
          w.status === 'disabled' && w.disabled_at ? h('small', { class: 'hint' }, ' since ', time(w.disabled_at)) : null),
      },
      { label: 'Created', render: (w) => time(w.created_at) },
      {
        label: 'Actions',
        render: (w) => {
          const enabled = w.status === 'enabled';
          const toggle = h('button', { type: 'button', class: 'btn btn-small', dataset: { action: enabled ? 'disable' : 'enable' } }, enabled ? 'Disable' : 'Enable');
          toggle.addEventListener('click', () => busy(toggle, async () => {
            const updated = await patch(`/v1/webhooks/${seg(w.webhook_id)}`, { status: enabled ? 'disabled' : 'enabled' });
            showNotice(`Webhook for ${updated.url} ${updated.status}`);
            t.replace(toggle, updated);
          }, enabled ? 'Disable webhook' : 'Enable webhook'));
          const rm = h('button', { type: 'button', class: 'btn btn-small btn-danger' }, 'Delete');
          rm.addEventListener('click', () => {
            if (!confirm(`Delete the webhook for ${w.url}?`)) return;
            busy(rm, async () => {
              await del(`/v1/webhooks/${seg(w.webhook_id)}`);
              showNotice('Webhook deleted');
              await p.first();
            }, 'Delete webhook');
          });
          return h('div', { class: 'actions' }, toggle, h('a', { class: 'btn btn-small', href: `#/webhooks/${encodeURIComponent(w.webhook_id)}` }, 'Deliveries'), rm);
        },
      },
    ],
    { caption: 'Webhooks', empty: 'No webhooks registered.' },
  );
  const p = pager((cursor) => get('/v1/webhooks', { cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });

  // The tenant's job-webhook secret signs deliveries to a job's or run's own webhook_url (admin).
  const jobSecretHost = h('div');
  const reveal = h('button', { type: 'button', class: 'btn' }, 'Show job-webhook signing secret');
  reveal.addEventListener('click', () => busy(reveal, async () => {
    const s = await get('/dashboard/api/settings/webhooks');
    clear(jobSecretHost).append(secretBox('Job-webhook signing secret', s.signing_secret, 'Signs deliveries to a job\'s or run\'s own webhook_url. Keep it secret.'));
  }, 'Signing secret'));

  page.append(
    pageHeader('Webhooks'),
    section('Register', form, secretHost),
    section('Endpoints', h('div', { id: 'webhooks-table' }, t.el), p.el),
    section('Job and run webhook_url signatures', h('p', { class: 'hint' }, 'Webhooks set on a job or run are signed with a separate tenant secret.'), reveal, jobSecretHost),
  );
  await busy(null, () => p.first(), 'Webhooks');
}

export async function webhookDetail(page, ctx) {
  const id = ctx.params.id;
  const t = table(
    [
      { label: 'Delivery', render: (d) => h('span', { class: 'mono' }, d.delivery_id) },
      ...deliveryColumns(),
      {
        label: 'Actions',
        render: (d) => {
          const details = deliveryDetails(d);
          if (d.status === 'pending') return details;
          const retry = h('button', { type: 'button', class: 'btn btn-small' }, 'Retry');
          retry.addEventListener('click', () => busy(retry, async () => {
            await post(`/v1/webhooks/${seg(id)}/deliveries/${seg(d.delivery_id)}/retry`);
            showNotice('Delivery queued again');
            await p.first();
          }, 'Retry delivery'));
          return h('div', {}, retry, details);
        },
      },
    ],
    { caption: 'Deliveries', empty: 'No deliveries yet.' },
  );
  const p = pager((cursor) => get(`/v1/webhooks/${seg(id)}/deliveries`, { cursor, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Deliveries'));
  page.append(
    pageHeader('Webhook deliveries', refresh),
    h('p', {}, h('a', { href: '#/webhooks' }, '← All webhooks')),
    dl([['Webhook', h('span', { class: 'mono' }, id)]]),
    section('Delivery log', t.el, p.el),
  );
  await busy(refresh, () => p.first(), 'Deliveries');
}

/**
 * The "Webhook deliveries" section of a job or run: the deliveries to its own webhook_url
 * (`path` is /v1/jobs/{id}/deliveries or /v1/runs/{id}/deliveries), with Load more and Refresh.
 * Returns { el, load(), settle() }: settle() reloads until no delivery on the first page is
 * pending (and at least one exists), for a run that has just finished; it gives up after ~30 s.
 */
export function ownDeliveries(path, ctx, { id, empty = 'No webhook deliveries yet.', intro } = {}) {
  let first = [];
  const t = table(
    [...deliveryColumns(), { label: 'Details', render: deliveryDetails }],
    { caption: 'Webhook deliveries', empty },
  );
  const p = pager((cursor) => get(path, { cursor, limit: 25 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) {
      t.reset();
      first = rows;
    }
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn btn-small' }, 'Refresh');
  const load = () => busy(refresh, () => p.first(), 'Webhook deliveries');
  refresh.addEventListener('click', load);
  const el = section('Webhook deliveries',
    intro ? h('p', { class: 'hint' }, intro) : null,
    h('div', { id }, t.el),
    h('div', { class: 'actions deliveries-foot' }, refresh, p.el));
  const settle = async () => {
    for (let i = 0; i < 15 && !ctx.signal.aborted; i++) {
      try {
        await p.first();
      } catch (err) {
        if (!isAbort(err)) showError(err, 'Webhook deliveries');
        return;
      }
      if (first.length && !first.some((d) => d.status === 'pending')) return;
      await sleep(2000, ctx.signal).catch(() => undefined);
    }
  };
  return { el, load, settle };
}
