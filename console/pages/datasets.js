// Datasets: the collected data in one place: item sets of succeeded runs and stored result files.
import { h, table, time, fmtBytes } from '../lib/dom.js';
import { get } from '../lib/api.js';
import { busy, pageHeader, pager, section, subnav } from '../lib/ui.js';

const KINDS = {
  runs: {
    title: 'Run results',
    lead: 'The items of each succeeded run, newest first. Open one to browse its results or export CSV / NDJSON.',
    empty: 'No succeeded runs yet. Start one under Runs.',
    columns: [
      { label: 'Run', render: (d) => h('a', { href: `#/runs/${encodeURIComponent(d.id)}`, class: 'mono' }, d.id) },
      { label: 'Scraper', render: (d) => d.source },
      { label: 'Items', render: (d) => String(d.items ?? 0) },
      { label: 'Created', render: (d) => time(d.created_at) },
      { label: 'Data', render: (d) => h('a', { href: `#/runs/${encodeURIComponent(d.id)}`, class: 'btn btn-small', 'aria-label': `View the results of ${d.id}` }, 'View results') },
    ],
  },
  files: {
    title: 'Result files',
    lead: 'The stored JSON result of each completed query and each job run, newest first. Open one to preview or download it.',
    empty: 'No result files yet. Each completed query and each job run stores one.',
    columns: [
      { label: 'File', render: (d) => h('a', { href: `#/storage?key=${encodeURIComponent(d.id)}`, class: 'mono break' }, d.id) },
      { label: 'From', render: (d) => d.source },
      { label: 'Size', render: (d) => fmtBytes(d.size) },
      { label: 'Created', render: (d) => time(d.created_at) },
      { label: 'Data', render: (d) => h('a', { href: `#/storage?key=${encodeURIComponent(d.id)}`, class: 'btn btn-small', 'aria-label': `Preview ${d.id}` }, 'Preview') },
    ],
  },
};

export async function datasetsPage(page, ctx) {
  const kind = ctx.query.get('kind') === 'files' ? 'files' : 'runs';
  const k = KINDS[kind];
  const t = table(k.columns, { caption: k.title, empty: k.empty });
  const p = pager((cursor) => get('/dashboard/api/datasets', { kind, cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Datasets'));
  page.append(
    pageHeader('Datasets', refresh),
    subnav('Dataset kind', [['#/datasets?kind=runs', 'Run results', 'runs'], ['#/datasets?kind=files', 'Result files', 'files']], kind, 'pills'),
    h('p', { class: 'lead' }, k.lead),
    section(k.title, h('div', { id: 'datasets-table' }, t.el), p.el),
  );
  await busy(refresh, () => p.first(), 'Datasets');
}
