// Social: each source's connection state, its use by queries in the last 7 days and what access it needs.
import { h, clear, table, badge } from '../lib/dom.js';
import { get } from '../lib/api.js';
import { busy, groupNav, pageHeader, section } from '../lib/ui.js';
import { sourceLabel } from './queries.js';

export async function socialPage(page, ctx) {
  const t = table(
    [
      { label: 'Source', render: (s) => h('strong', {}, sourceLabel(s.source)) },
      { label: 'Configured', render: (s) => (s.configured ? badge('yes', 'succeeded') : badge('no', 'cancelled')) },
      { label: 'Queries (7 days)', render: (s) => String(s.queries_7d ?? 0) },
      { label: 'Access', class: 'wide', render: (s) => h('details', { class: 'access' }, h('summary', {}, s.configured ? 'What access it uses' : 'What access is needed'), h('p', { class: 'hint' }, s.access ?? '')) },
      {
        label: 'Credentials',
        render: (s) => h('a', { href: '#/settings/sources', class: 'btn btn-small', 'aria-label': `${s.configured ? 'Manage' : 'Add'} ${sourceLabel(s.source)} credentials in Settings → Sources` }, s.configured ? 'Manage' : 'Add credentials'),
      },
    ],
    { caption: 'Social sources', empty: 'No sources.' },
  );
  const summary = h('p', { class: 'lead', id: 'social-summary' });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  const load = async () => {
    const { sources = [] } = await get('/dashboard/api/social', {}, { signal: ctx.signal });
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
    summary,
    section('Sources', h('div', { id: 'social-sources' }, t.el)),
  );
  await busy(refresh, load, 'Social');
}
