// Social: each source's connection state, its use by queries in the last 7 days and what access it needs,
// the quotas Gleaner counts per tenant (YouTube units today, Instagram hashtags this week) and the
// Graph API version with its retirement warning.
import { h, clear, table, badge, dl, time } from '../lib/dom.js';
import { get } from '../lib/api.js';
import { busy, consoleText, groupNav, pageHeader, section } from '../lib/ui.js';
import { sourceLabel } from './queries.js';

export async function socialPage(page, ctx) {
  const t = table(
    [
      { label: 'Source', render: (s) => h('strong', {}, sourceLabel(s.source)) },
      { label: 'Credentials set', render: (s) => (s.configured ? badge('configured', 'succeeded') : badge('not configured', 'blocked')) },
      { label: 'Queries (7 days)', render: (s) => String(s.queries_7d ?? 0) },
      { label: 'Access', class: 'wide', render: (s) => h('details', { class: 'access' }, h('summary', {}, s.configured ? 'What access it uses' : 'What access is needed'), h('p', { class: 'hint' }, consoleText(s.access ?? ''))) },
      {
        label: 'Credentials',
        render: (s) => h('a', { href: `#/settings/sources?source=${encodeURIComponent(s.source)}`, class: s.configured ? 'btn btn-small' : 'btn btn-small btn-primary', 'aria-label': s.configured ? `Manage ${sourceLabel(s.source)} credentials in Settings → Sources` : `Add credentials for ${sourceLabel(s.source)} in Settings → Sources` }, s.configured ? 'Manage' : 'Add credentials'),
      },
    ],
    { caption: 'Social sources', empty: 'No sources.' },
  );
  const summary = h('p', { class: 'lead', id: 'social-summary' });
  const warningsHost = h('div', { id: 'social-warnings' });
  const quotasHost = h('div', { id: 'social-quotas' });
  const meter = (used, limit, unit) =>
    h('span', { class: 'usage' },
      h('meter', { min: '0', max: String(limit), low: String(Math.round(limit * 0.8)), high: String(Math.round(limit * 0.95)), optimum: '0', value: String(Math.min(used, limit)), 'aria-label': `${used} of ${limit} ${unit}` }),
      ` ${used} of ${limit} ${unit} used`);
  const showQuotas = (body) => {
    clear(warningsHost).append(...(body.warnings ?? []).map((w) => h('div', { class: 'callout', role: 'alert' }, h('strong', {}, 'Action needed: '), w)));
    const q = body.quotas ?? {};
    const g = body.graph_api;
    const rows = [];
    rows.push(['YouTube (today, Pacific Time)', q.youtube
      ? h('span', { id: 'quota-youtube' }, meter(q.youtube.used, q.youtube.limit, 'units'), h('span', { class: 'hint' }, ' · resets ', time(q.youtube.resets_at), '. A query that would exceed what is left is refused before it runs.'))
      : h('span', { class: 'hint' }, 'YouTube is not configured.')]);
    rows.push(['Instagram hashtags (rolling 7 days)', q.instagram
      ? h('span', { id: 'quota-instagram' }, meter(q.instagram.used, q.instagram.limit, 'hashtags'),
        q.instagram.next_free_at ? h('span', { class: 'hint' }, ' · next free ', time(q.instagram.next_free_at)) : null,
        q.instagram.hashtags?.length ? h('span', { class: 'hint' }, ` · #${q.instagram.hashtags.join(', #')}`) : null)
      : h('span', { class: 'hint' }, 'Instagram is not configured.')]);
    if (g) {
      rows.push(['Graph API version (Facebook, Instagram)', h('span', { id: 'graph-version' }, h('span', { class: 'mono' }, g.version), ' ',
        badge(g.state, g.state === 'ok' ? 'succeeded' : g.state === 'retiring' ? 'blocked' : 'failed'),
        g.available_until ? h('span', { class: 'hint' }, ` · available until ${g.available_until}`) : null)]);
    }
    clear(quotasHost).append(dl(rows));
  };
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  const load = async () => {
    const body = await get('/dashboard/api/social', {}, { signal: ctx.signal });
    const { sources = [] } = body;
    showQuotas(body);
    t.reset();
    t.add(sources);
    const n = sources.filter((s) => s.configured).length;
    clear(summary).append(
      `${n} of ${sources.length} sources have credentials. Queries read each source through its official API with your own credentials (`,
      h('a', { href: '#/settings/sources' }, 'Settings → Sources'),
      '); a source without them is reported as an error in the query, the others still answer.',
    );
  };
  refresh.addEventListener('click', () => busy(refresh, load, 'Social'));
  page.append(
    pageHeader('Social', refresh, h('a', { href: '#/queries', class: 'btn btn-primary' }, 'New query')),
    groupNav('social', 'social'),
    warningsHost,
    summary,
    section('Sources', h('div', { id: 'social-sources' }, t.el)),
    section('Quotas and platform versions', quotasHost),
  );
  await busy(refresh, load, 'Social');
}
