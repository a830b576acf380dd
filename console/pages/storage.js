// Storage (SPEC.md 1, way 1): list result files, select one to preview, Download JSON, Delete.
import { h, clear, fmtBytes, time, field, isAbort } from '../lib/dom.js';
import { del, download, get, request, seg } from '../lib/api.js';
import { busy, jsonView, pageHeader, pager, showError, showNotice } from '../lib/ui.js';

export async function storagePage(page, ctx) {
  const jobFilter = ctx.query.get('job_id') ?? '';
  const list = h('ul', { class: 'file-list', id: 'storage-files', 'aria-label': 'Result files' });
  const preview = h('section', { class: 'card preview', id: 'storage-preview', 'aria-label': 'File preview', 'aria-live': 'polite' },
    h('p', { class: 'hint' }, 'Select a file to preview its JSON.'));
  let selected = null;

  const empty = () => h('li', { class: 'empty' }, jobFilter ? 'No files for this job yet.' : 'No result files yet. Each completed query and each job run stores its JSON result here.');

  async function select(file, button) {
    selected = file.key;
    for (const b of list.querySelectorAll('button.file')) b.setAttribute('aria-pressed', String(b === button));
    clear(preview).append(h('p', { class: 'loading' }, `Loading ${file.key}…`));
    let text;
    try {
      const res = await request('GET', `/v1/storage/${seg(file.key)}`, { raw: true, signal: ctx.signal });
      text = await res.text();
    } catch (err) {
      if (isAbort(err)) return;
      clear(preview).append(h('p', { class: 'load-error' }, `Could not load ${file.key}.`));
      showError(err, 'Preview');
      return;
    }
    if (selected !== file.key) return;
    let value;
    let parsed = true;
    try {
      value = JSON.parse(text);
    } catch {
      parsed = false;
    }
    const dl = h('button', { type: 'button', class: 'btn btn-primary', id: 'storage-download' }, 'Download JSON');
    dl.addEventListener('click', () => busy(dl, async () => {
      const name = await download(`/v1/storage/${seg(file.key)}`, { download: '1' }, file.key);
      showNotice(`Downloaded ${name}`);
    }, 'Download'));
    const rm = h('button', { type: 'button', class: 'btn btn-danger', id: 'storage-delete' }, 'Delete');
    rm.addEventListener('click', () => {
      if (!confirm(`Delete ${file.key}? This cannot be undone.`)) return;
      busy(rm, async () => {
        await del(`/v1/storage/${seg(file.key)}`);
        showNotice(`Deleted ${file.key}`);
        (button ?? list.querySelector(`button.file[data-key="${CSS.escape(file.key)}"]`))?.closest('li')?.remove();
        if (!list.querySelector('li')) list.append(empty());
        selected = null;
        clear(preview).append(h('p', { class: 'hint' }, 'Select a file to preview its JSON.'));
      }, 'Delete');
    });
    clear(preview).append(
      h('div', { class: 'preview-head' },
        h('h2', { class: 'mono break', id: 'storage-preview-title' }, file.key),
        h('div', { class: 'actions' }, dl, rm)),
      h('p', { class: 'hint' },
        file.size !== undefined ? `${fmtBytes(file.size)} · ` : '',
        file.created_at ? ['created ', time(file.created_at), ' · '] : '',
        file.query_id ? ['query ', h('a', { href: `#/queries/${encodeURIComponent(file.query_id)}` }, file.query_id)] : '',
        file.job_id ? [' · job ', h('a', { href: `#/jobs/${encodeURIComponent(file.job_id)}` }, file.job_id)] : null),
      parsed ? jsonView(value, { label: file.key }) : h('pre', { class: 'json-raw mono', tabindex: '0' }, text),
    );
  }

  const p = pager(
    (cursor) => get('/v1/storage', { cursor, job_id: jobFilter || undefined, limit: 50 }, { signal: ctx.signal }),
    (rows, reset) => {
      if (reset) {
        clear(list);
      }
      if (reset && !rows.length) list.append(empty());
      for (const f of rows) {
        const b = h('button', { type: 'button', class: 'file', 'aria-pressed': 'false', dataset: { key: f.key } },
          h('span', { class: 'file-key mono' }, f.key),
          h('span', { class: 'file-meta' }, fmtBytes(f.size), ' · ', time(f.created_at), f.job_id ? ' · job' : ''));
        b.addEventListener('click', () => select(f, b));
        list.append(h('li', {}, b));
      }
    },
  );

  const filterInput = h('input', { type: 'text', name: 'job_id', value: jobFilter, placeholder: 'job_…', class: 'mono', spellcheck: 'false' });
  const filterForm = h('form', { class: 'inline-form', role: 'search', 'aria-label': 'Filter files' }, field('Job id', filterInput), h('button', { type: 'submit', class: 'btn' }, 'Filter'));
  filterForm.addEventListener('submit', (e) => {
    e.preventDefault();
    const v = filterInput.value.trim();
    ctx.navigate(v ? `#/storage?job_id=${encodeURIComponent(v)}` : '#/storage');
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Storage'));

  page.append(
    pageHeader('Storage', refresh),
    h('p', { class: 'lead' }, 'Stored JSON results: one file per completed query and per job run. Select a file to preview it; Download JSON saves the raw result.'),
    filterForm,
    h('div', { class: 'split' }, h('section', { class: 'card files', 'aria-label': 'Files' }, list, p.el), preview),
  );
  await busy(refresh, () => p.first(), 'Storage');
  // #/storage?key=… opens that file (from a query's "Stored result" link).
  const wanted = ctx.query.get('key');
  if (wanted && !ctx.signal.aborted) {
    const b = Array.from(list.querySelectorAll('button.file')).find((x) => x.dataset.key === wanted);
    if (b) b.click();
    else await select({ key: wanted }, null);
  }
}
