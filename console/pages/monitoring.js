// Monitoring: runs, queries and challenges over a chosen window (1 h, 24 h, 7 d, 30 d); recent
// failures; usage this month against the plan.
import { h, clear, table, dl, badge, time, truncate, nextId } from '../lib/dom.js';
import { get } from '../lib/api.js';
import { busy, consoleText, idChip, pageHeader, section, subnav } from '../lib/ui.js';
import { RUN_STATUSES } from './runs.js';
import { timeChart } from '../lib/charts.js';

const QUERY_STATUSES = ['queued', 'running', 'completed', 'failed'];
const CHALLENGE_KINDS = ['recaptcha', 'hcaptcha', 'turnstile', 'cloudflare_challenge', 'unknown'];
const BILLING_BADGE = { active: 'succeeded', past_due: 'blocked', suspended: 'failed' };

/** A tile: a big total and a list of "badge count" lines (known keys first, then any others). */
function tile(id, title, total, counts, known, { badgeKind = (k) => k } = {}) {
  const keys = [...known, ...Object.keys(counts ?? {}).filter((k) => !known.includes(k))];
  const headId = nextId('tile');
  return h('section', { class: 'card stat', id, 'aria-labelledby': headId },
    h('h2', { id: headId }, title),
    h('p', { class: 'stat-num' }, String(total ?? 0)),
    h('ul', { class: 'counts' },
      keys.map((k) => {
        const n = counts?.[k] ?? 0;
        return h('li', { class: n ? '' : 'zero', dataset: { key: k } }, badge(k, badgeKind(k)), h('span', { class: 'count' }, String(n)));
      })));
}

/** "used of limit" with a <meter> when the plan caps it. */
function usageLine(used, limit) {
  if (limit === null || limit === undefined) return h('span', {}, `${used ?? 0} used · no monthly limit`);
  const pct = limit > 0 ? Math.round(((used ?? 0) / limit) * 100) : 100;
  return h('span', { class: 'usage' },
    h('meter', { min: '0', max: String(limit), low: String(Math.round(limit * 0.8)), high: String(Math.round(limit * 0.95)), optimum: '0', value: String(Math.min(used ?? 0, limit)), 'aria-label': `${used ?? 0} of ${limit}` }),
    ` ${used ?? 0} of ${limit} (${pct}%)`);
}

const pct = (x) => (x === null || x === undefined ? '—' : `${Math.round(x * 1000) / 10}%`);
const dur = (ms) => (ms === null || ms === undefined ? '—' : ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

const RANGES = [['1h', 'Last hour'], ['24h', 'Last 24 hours'], ['7d', 'Last 7 days'], ['30d', 'Last 30 days']];
const PER = { 300: ['per 5 minutes', '5 minutes from (UTC)'], 3600: ['per hour', 'Hour (UTC)'], 21600: ['per 6 hours', '6 hours from (UTC)'], 86400: ['per day', 'Day (UTC)'] };

/** Charts over the window (per bucket) and the rates/durations beside them. */
function activityView(a) {
  const [per, bucketLabel] = PER[a?.bucket_seconds] ?? ['per interval', 'Interval (UTC)'];
  const b = a?.buckets ?? [];
  const times = b.map((x) => x.t);
  const col = (k) => b.map((x) => x[k] ?? 0);
  return [
    h('div', { class: 'stats', id: 'mon-rates' },
      h('section', { class: 'card stat', id: 'mon-success', 'aria-label': 'Success rate' },
        h('h2', {}, 'Success rate'),
        dl([['Runs', h('span', { dataset: { rate: 'runs' } }, pct(a?.success_rate?.runs))], ['Queries', h('span', { dataset: { rate: 'queries' } }, pct(a?.success_rate?.queries))]])),
      h('section', { class: 'card stat', id: 'mon-durations', 'aria-label': 'Durations' },
        h('h2', {}, 'Durations (p50 / p95)'),
        dl([
          ['Runs', h('span', { dataset: { duration: 'runs' } }, `${dur(a?.durations?.runs?.p50_ms)} / ${dur(a?.durations?.runs?.p95_ms)}`)],
          ['Queries', h('span', { dataset: { duration: 'queries' } }, `${dur(a?.durations?.queries?.p50_ms)} / ${dur(a?.durations?.queries?.p95_ms)}`)],
        ]))),
    h('div', { class: 'charts', id: 'mon-charts' },
      timeChart({ id: 'chart-work', title: `Runs and queries ${per}`, bucketLabel, times, series: [{ label: 'Runs', values: col('runs') }, { label: 'Queries', values: col('queries') }] }),
      timeChart({ id: 'chart-pages', title: `Pages ${per}`, bucketLabel, times, series: [{ label: 'Pages', values: col('pages') }] }),
      timeChart({ id: 'chart-errors', title: `Errors ${per}`, bucketLabel, times, series: [{ label: 'Errors', values: col('errors') }] })),
  ];
}

export async function monitoringPage(page, ctx) {
  const range = RANGES.some(([r]) => r === ctx.query.get('range')) ? ctx.query.get('range') : '24h';
  const rangeLabel = RANGES.find(([r]) => r === range)[1];
  const activityHost = h('div', { id: 'mon-activity' });
  const tiles = h('div', { class: 'stats', id: 'mon-tiles' }, h('p', { class: 'loading' }, 'Loading…'));
  const usageHost = h('div', { id: 'mon-usage' });
  const failures = table(
    [
      { label: 'What', render: (f) => (f.kind === 'run' ? 'Run' : 'Query') },
      {
        label: 'Which',
        class: 'wide',
        render: (f) => h('div', { class: 'name-id' },
          h('a', { href: f.kind === 'run' ? `#/runs/${encodeURIComponent(f.id)}` : `#/queries/${encodeURIComponent(f.id)}`, class: 'break' }, truncate(f.label ?? f.id, 80)),
          idChip(f.id, `${f.kind} id`)),
      },
      { label: 'Status', render: (f) => badge(f.status, f.status) },
      { label: 'When', render: (f) => time(f.at) },
      // Service instructions ("update them with PUT /dashboard/api/sources/x") read as console links.
      { label: 'Error', class: 'wide', render: (f) => h('span', {}, consoleText(truncate(f.error ?? '', 300))) },
    ],
    { caption: 'Recent failures', empty: `No failed, timed-out or blocked runs and no failed queries in the ${rangeLabel.toLowerCase()}.` },
  );
  const windowNote = h('p', { class: 'lead', id: 'mon-window' }, `${rangeLabel}.`);
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');

  const warningsHost = h('div', { id: 'mon-warnings' });
  const show = (m) => {
    // Platform warnings (e.g. the Graph API version retiring): before anything else, they need an action.
    clear(warningsHost).append(...(m.platform_warnings ?? []).map((w) => h('div', { class: 'callout', role: 'alert' }, h('strong', {}, 'Action needed: '), consoleText(w))));
    windowNote.replaceChildren(`${rangeLabel}: `, time(m.window?.since), ' to ', time(m.window?.until), '. Counts are of runs and queries created in this window (the newest 200 of each).');
    const r = m.runs ?? {};
    clear(tiles).append(
      tile('mon-runs', 'Runs', r.total, r.by_status, RUN_STATUSES),
      tile('mon-queries', 'Queries', m.queries?.total, m.queries?.by_status, QUERY_STATUSES),
      tile('mon-challenges', 'Challenges met', m.challenges?.total, m.challenges?.by_kind, CHALLENGE_KINDS, { badgeKind: () => 'blocked' }),
      h('section', { class: 'card stat', id: 'mon-pages', 'aria-label': 'Pages' },
        h('h2', {}, 'Pages'),
        h('p', { class: 'stat-num' }, String(r.pages ?? 0)),
        h('p', { class: 'hint' }, 'Pages done by runs created in this window.'),
        dl([
          ['Blocked requests', String(r.blocked_requests ?? 0)],
          ['Skipped by robots.txt', String(r.robots_skipped ?? 0)],
        ])),
    );
    clear(activityHost).append(...activityView(m.activity));
    failures.reset();
    failures.add(m.recent_failures ?? []);
    const u = m.usage ?? {};
    const lim = u.limits ?? {};
    clear(usageHost).append(dl([
      ['Month', `${u.month ?? ''} (UTC)`],
      ['Pages', h('span', {}, usageLine(u.pages, lim.monthly_pages), h('small', { class: 'hint block', id: 'mon-usage-note' },
        'Billed pages this calendar month (UTC): every page fetched by runs, crawls and /v1/scrape calls, minus pages stopped by a challenge and pages skipped by robots.txt. It can differ from the Pages tile above, which counts only runs created in the selected window.'))],
      ['Results', usageLine(u.results, lim.monthly_results)],
      ['Model tokens', h('span', { id: 'mon-model-tokens' }, usageLine(u.model_tokens ?? 0, lim.monthly_model_tokens), h('small', { class: 'hint block' },
        'Input and output tokens of model extraction (the json format) this calendar month (UTC): runs, /v1/scrape calls, MCP and the console\'s Test buttons. At the limit, new json requests are refused (402).'))],
      ['Rate limit', lim.rate_requests ? `${lim.rate_requests} requests per ${lim.rate_seconds} s` : '—'],
      ['Jobs', h('span', { id: 'mon-job-limits' }, lim.max_jobs ? `up to ${lim.max_jobs} jobs, each firing at most once every ${Math.round(lim.min_job_interval_seconds / 60)} min` : '—')],
      ['Billing', h('span', { id: 'mon-billing' }, badge(m.billing_status ?? 'unknown', BILLING_BADGE[m.billing_status] ?? 'cancelled'),
        m.billing_status && m.billing_status !== 'active' ? h('span', { class: 'hint' }, ' New runs and queries are refused (402) until billing is active again.') : null)],
    ]));
  };
  const load = async () => show(await get('/dashboard/api/monitoring', { range }, { signal: ctx.signal }));
  refresh.addEventListener('click', () => busy(refresh, load, 'Monitoring'));

  page.append(
    pageHeader('Monitoring', refresh),
    subnav('Time range', RANGES.map(([r, label]) => [`#/monitoring?range=${r}`, label, r]), range, 'pills'),
    warningsHost,
    windowNote,
    tiles,
    section('Activity', activityHost),
    section('Recent failures', failures.el),
    section('Usage this month', usageHost),
  );
  await busy(refresh, load, 'Monitoring');
}
