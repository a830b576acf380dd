// Data: everything collected, in one place, as two tabs: the datasets of succeeded runs and the
// stored result files of queries and jobs (browsed and previewed in place; storage.js).
import { h, table, time, truncate } from '../lib/dom.js';
import { get } from '../lib/api.js';
import { busy, idChip, pageHeader, pager, section, subnav } from '../lib/ui.js';
import { scraperNames } from './runs.js';
import { fileBrowser } from './storage.js';

const TABS = [['#/datasets?kind=runs', 'Run datasets', 'runs'], ['#/datasets?kind=files', 'Stored files', 'files']];

/** The Data page's heading and tabs; `kind` is the active tab. */
export function dataShell(page, kind, ...actions) {
  page.append(
    pageHeader('Data & Storage', ...actions),
    subnav('Data & Storage', TABS, kind),
  );
}

export async function datasetsPage(page, ctx) {
  const kind = ctx.query.get('kind') === 'files' ? 'files' : 'runs';
  if (kind === 'files') return fileBrowser(page, ctx);
  let names = new Map();
  const t = table([
    {
      label: 'Run',
      class: 'wide',
      render: (d) => h('div', { class: 'name-id' }, h('a', { href: `#/runs/${encodeURIComponent(d.id)}`, class: 'break' }, truncate(d.label ?? names.get(d.source) ?? d.id, 80)), idChip(d.id, 'run id')),
    },
    { label: 'Scraper', render: (d) => h('span', { title: d.source }, names.get(d.source) ?? d.source) },
    { label: 'Items', render: (d) => String(d.items ?? 0) },
    { label: 'Finished', render: (d) => time(d.finished_at ?? d.created_at) },
    { label: 'Data', render: (d) => h('a', { href: `#/runs/${encodeURIComponent(d.id)}`, class: 'btn btn-small', 'aria-label': `View results of ${d.label ?? d.id}` }, 'View results') },
  ], { caption: 'Run datasets', empty: 'No succeeded runs yet. Start one under Runs; its items appear here.' });
  const p = pager((cursor) => get('/dashboard/api/datasets', { kind, cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Data'));
  dataShell(page, 'runs', refresh);
  page.append(
    h('p', { class: 'lead' }, 'The items of each succeeded run, newest first. Open one to read its results or export CSV / NDJSON. Query and job results are under Stored files.'),
    section('Run datasets', h('div', { id: 'datasets-table' }, t.el), p.el),
  );
  names = (await scraperNames(ctx.signal).catch(() => ({ names: new Map() }))).names;
  await busy(refresh, () => p.first(), 'Data');
}
