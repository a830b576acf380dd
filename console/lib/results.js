// Scraped items as people read them: a table with a column picker (url, title, status by
// default), rows that open a detail panel (rendered Markdown, raw text, JSON, each with Copy;
// first the extracted object when the run asked for model extraction).
import { h, clear, table, time, truncate, extLink, nextId } from './dom.js';
import { copyButton, jsonView } from './ui.js';
import { renderMarkdown } from './markdown.js';
import { changeBadge, isTypedKey, pageKindLabel, typedCards, typedSummary, valueWords } from './typed-view.js';

const COLS_KEY = 'gleaner.console.result-columns';
const DEFAULT_COLS = ['url', 'title', 'status'];

/** The item's title: data.title, data.metadata.title, or the first Markdown heading. */
export function itemTitle(it) {
  const d = it?.data ?? {};
  if (typeof d.title === 'string' && d.title.trim()) return d.title.trim();
  if (typeof d.metadata?.title === 'string' && d.metadata.title.trim()) return d.metadata.title.trim();
  const md = typeof d.markdown === 'string' ? d.markdown : '';
  const m = /^\s{0,3}#{1,6}\s+(.+)$/m.exec(md);
  return m ? m[1].replace(/#+\s*$/, '').trim() : '';
}

/** The item's Markdown (data.markdown, else data.content when it is a string), or null. */
const itemMarkdown = (it) => {
  const d = it?.data ?? {};
  if (typeof d.markdown === 'string') return d.markdown;
  if (typeof d.content === 'string') return d.content;
  return null;
};

/** Plain text of an item: data.text, else its Markdown, else every string field, one per line. */
const itemText = (it) => {
  const d = it?.data ?? {};
  if (typeof d.text === 'string') return d.text;
  const md = itemMarkdown(it);
  if (md !== null) return md;
  return Object.entries(d).filter(([, v]) => typeof v === 'string').map(([k, v]) => `${k}: ${v}`).join('\n');
};

/** A one-line preview of any value for a table cell, in words (lists joined, objects by their parts, never JSON); when cut, its title (on hover) holds all of it. */
const cellText = (v, n = 120, key = '') => {
  const full = typeof v === 'string' ? v : v === null || v === undefined ? '' : valueWords(key, v);
  const line = full.replace(/\s+/g, ' ').trim();
  if (line.length <= n) return line;
  return h('span', { class: 'clipped', title: full.length > 4000 ? `${full.slice(0, 3999)}…` : full }, `${line.slice(0, n - 1)}…`);
};

const httpKind = (code) => (code >= 400 ? 'failed' : code >= 300 ? 'blocked' : 'succeeded');
/** Names people read for item fields: "content_type" -> "Content type", "engine_used" -> "Engine". */
const FIELD_NAMES = { change: 'Change', product: 'Product', product_list: 'Product list', article: 'Article', job_posting: 'Job posting', url: 'URL', fetched_at: 'Fetched', status_code: 'HTTP status', content_type: 'Content type', engine_used: 'Engine', final_url: 'Final URL', json: 'Extracted JSON', json_error: 'Extraction error', json_usage: 'Model tokens', og: 'Open Graph', html: 'HTML', depth: 'Depth', via: 'Found via' };
export const fieldLabel = (k) => FIELD_NAMES[k] ?? String(k).split(/[_-]+/).filter(Boolean).map((w, i) => (i ? w : w[0].toUpperCase() + w.slice(1))).join(' ').replace(/\burl\b/gi, 'URL');

const httpBadge = (code) => (code ? h('span', { class: ['badge', `badge-${httpKind(code)}`], title: `HTTP ${code}` }, String(code)) : '—');

/** Tabs that switch panels (role=tablist; arrow keys move between tabs). tabs = [[label, panel]]. */
export function tabbed(label, tabs, { initial = 0 } = {}) {
  const buttons = [];
  const panels = [];
  const select = (k, focus) => {
    buttons.forEach((b, j) => {
      b.setAttribute('aria-selected', String(j === k));
      b.tabIndex = j === k ? 0 : -1;
      panels[j].hidden = j !== k;
    });
    if (focus) buttons[k].focus();
  };
  tabs.forEach(([text, panel], k) => {
    const id = nextId('tab');
    const b = h('button', { type: 'button', role: 'tab', class: 'tab', id, 'aria-controls': `${id}-panel` }, text);
    b.addEventListener('click', () => select(k));
    b.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
        e.preventDefault();
        select((k + (e.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length, true);
      }
    });
    buttons.push(b);
    panels.push(h('div', { role: 'tabpanel', id: `${id}-panel`, 'aria-labelledby': id, class: 'tab-panel' }, panel));
  });
  select(initial);
  const el = h('div', { class: 'tabbed' }, h('div', { class: 'tabs', role: 'tablist', 'aria-label': label }, buttons), panels);
  return { el, select: (k) => select(k), buttons, panels };
}

const fmtN = (n) => Number(n ?? 0).toLocaleString('en-US');

/**
 * Model extraction of an item (data.json with data.json_usage, or data.json_error): the object
 * with Copy and its tokens, or why there is none. null when the item has neither.
 */
function extracted(it) {
  const d = it?.data ?? {};
  if (d.json === undefined && !d.json_error) return null;
  const u = d.json_usage;
  return h('div', { class: 'item-extracted' },
    d.json !== undefined
      ? [h('div', { class: 'panel-actions' }, copyButton(() => JSON.stringify(d.json, null, 2), null, 'Copy extracted JSON')), jsonView(d.json, { label: 'Extracted JSON' })]
      : h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'No object was extracted: '), d.json_error.message ?? '', d.json_error.code ? h('span', { class: 'hint' }, ` (${d.json_error.code})`) : null),
    u ? h('p', { class: 'hint' }, `Model ${u.model ?? '—'} · ${fmtN(u.input_tokens)} input + ${fmtN(u.output_tokens)} output tokens${u.truncated ? ' · the page was cut to the input budget' : ''}`) : null);
}

/** Open one item in a modal panel: Preview (rendered Markdown), Text and JSON, each with Copy. */
export function openItem(it, { index, total, onNav } = {}) {
  document.querySelector('dialog.item-detail')?.remove();
  const title = itemTitle(it) || it.url || 'Item';
  const md = itemMarkdown(it);
  const text = itemText(it);
  const json = JSON.stringify(it, null, 2);
  const headId = nextId('dlg');
  const close = h('button', { type: 'button', class: 'btn btn-small', 'aria-label': 'Close the item' }, 'Close');
  const preview = md !== null
    ? h('div', { class: 'markdown', id: 'item-markdown' }, renderMarkdown(md))
    : h('pre', { class: 'plain-text' }, text || '(no text in this item)');
  const tabs = tabbed('Item view', [
    ...(typedCards(it) ? [['Typed data', typedCards(it)]] : []),
    ...(extracted(it) ? [['Extracted', extracted(it)]] : []),
    [md !== null ? 'Preview' : 'Text', h('div', {}, h('div', { class: 'panel-actions' }, md !== null ? copyButton(() => md, null, 'Copy Markdown') : copyButton(() => text, null, 'Copy text')), preview)],
    ...(md !== null ? [['Markdown', h('div', {}, h('div', { class: 'panel-actions' }, copyButton(() => md, null, 'Copy Markdown')), h('pre', { class: 'plain-text', tabindex: '0' }, md))]] : []),
    ...(md !== null && typeof it.data?.text === 'string' ? [['Text', h('div', {}, h('div', { class: 'panel-actions' }, copyButton(() => it.data.text, null, 'Copy text')), h('pre', { class: 'plain-text', tabindex: '0' }, it.data.text))]] : []),
    ['JSON', h('div', {}, h('div', { class: 'panel-actions' }, copyButton(() => json, null, 'Copy JSON')), jsonView(it, { label: 'Item JSON' }))],
  ]);
  const nav = onNav && total > 1
    ? h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'btn btn-small', disabled: index <= 0, onclick: () => onNav(index - 1) }, '← Previous'),
      h('span', { class: 'hint' }, `${index + 1} of ${total}`),
      h('button', { type: 'button', class: 'btn btn-small', disabled: index >= total - 1, onclick: () => onNav(index + 1) }, 'Next →'))
    : null;
  const dlg = h('dialog', { class: 'item-detail', 'aria-labelledby': headId },
    h('div', { class: 'detail-head' },
      h('div', { class: 'detail-title' }, h('h2', { id: headId }, title), h('p', { class: 'hint break' }, extLink(it.url, it.url), ' · HTTP ', httpBadge(it.status_code), ' · fetched ', time(it.fetched_at), pageKindLabel(it) ? [' · ', pageKindLabel(it)] : null)),
      h('div', { class: 'actions' }, nav, close)),
    tabs.el);
  close.addEventListener('click', () => dlg.close());
  dlg.addEventListener('close', () => dlg.remove());
  // A click on the backdrop (outside the panel's box) closes it too.
  dlg.addEventListener('click', (e) => {
    if (e.target === dlg) {
      const r = dlg.getBoundingClientRect();
      if (e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom) dlg.close();
    }
  });
  document.body.append(dlg);
  dlg.showModal();
  close.focus();
  return dlg;
}

/** The choice is kept per shape of item (the columns on offer), so each scraper keeps its own. */
const colsKey = (available) => `${COLS_KEY}:${available.join(',')}`;

/** Data keys too long for a cell: shown in the item panel, not as default columns. */
const BULKY = new Set(['markdown', 'text', 'html', 'content', 'links', 'metadata', 'headings', 'images', 'raw', 'json_usage']);

/**
 * The columns to show: the user's last choice (kept in localStorage), else url, title and
 * status, plus up to three short data fields (a runbook's or CSS extract's own fields).
 */
function loadColumns(available) {
  let saved;
  try {
    saved = JSON.parse(localStorage.getItem(colsKey(available)) ?? 'null');
  } catch {
    saved = null;
  }
  const chosen = Array.isArray(saved) ? saved.filter((c) => available.includes(c)) : [];
  if (chosen.length) return chosen;
  // A change's status and typed objects come first: they are what such a run was asked for.
  const first = (c) => (c === 'data.change' ? 0 : isTypedKey(c.slice(5)) ? 1 : 2);
  const extra = available.filter((c) => c.startsWith('data.') && !BULKY.has(c.slice(5))).sort((a, b) => first(a) - first(b)).slice(0, 3);
  return [...DEFAULT_COLS.filter((c) => available.includes(c)), ...extra];
}

/**
 * An items table: `items` (an array that grows), columns chosen from url, title, status, fetched
 * and the data keys seen; each row opens the item panel. Returns { el, update(items) }.
 */
export function itemsView({ caption = 'Results', empty = 'No items yet.', id, runId = null } = {}) {
  let items = [];
  let chosen = null;
  // Until the user picks columns, the defaults follow the items (their data fields appear as they load).
  let userChose = false;
  const host = h('div', { class: 'items-table' });
  const pickerBody = h('div', { class: 'check-row' });
  const picker = h('details', { class: 'col-picker' }, h('summary', {}, 'Columns'), h('fieldset', { class: 'field checks' }, h('legend', { class: 'sr-only' }, 'Columns to show'), pickerBody));
  const countEl = h('span', { class: 'hint', 'aria-live': 'polite' });
  const el = h('div', { class: 'items-view', id }, h('div', { class: 'items-bar' }, countEl, picker), host);

  const available = () => {
    const keys = new Set(['url', 'title', 'status', 'fetched']);
    for (const it of items.slice(0, 200)) for (const k of Object.keys(it.data ?? {})) if (k !== 'title') keys.add(`data.${k}`);
    return [...keys];
  };
  const labelOf = (c) => ({ url: 'URL', title: 'Title', status: 'HTTP status', fetched: 'Fetched' })[c] ?? fieldLabel(c.slice(5));
  const column = (c) => {
    switch (c) {
      case 'url':
        return { label: 'URL', class: 'url-col', render: (it) => extLink(it.url, truncate(it.url, 70)) };
      case 'title':
        return { label: 'Title', class: 'data-col', render: (it) => h('span', {}, cellText(itemTitle(it), 100) || '—', pageKindLabel(it) ? [' ', pageKindLabel(it)] : null) };
      case 'status':
        return { label: 'HTTP', render: (it) => httpBadge(it.status_code) };
      case 'fetched':
        return { label: 'Fetched', render: (it) => time(it.fetched_at) };
      default: {
        const k = c.slice(5);
        // A change is a status badge linking to its diff; a typed object is summed up in a line.
        if (k === 'change') return { label: 'Change', render: (it) => changeBadge(it.data?.change, { url: it.url, runId, tag: tagOf() }) };
        if (isTypedKey(k)) return { label: fieldLabel(k), class: 'data-col', render: (it) => (it.data?.[k] ? cellText(typedSummary(k, it.data[k]), 100) : h('span', { class: 'hint' }, 'not this kind')) };
        return { label: fieldLabel(k), class: 'data-col', render: (it) => (it.data?.[k] === undefined ? '—' : cellText(it.data[k], 120, k) || '—') };
      }
    }
  };
  const render = () => {
    const avail = available();
    chosen = userChose ? chosen.filter((c) => avail.includes(c)) : loadColumns(avail);
    clear(pickerBody).append(avail.map((c) => {
      const box = h('input', { type: 'checkbox', id: nextId('col'), value: c, checked: chosen.includes(c) });
      box.addEventListener('change', () => {
        userChose = true;
        chosen = box.checked ? avail.filter((x) => x === c || chosen.includes(x)) : chosen.filter((x) => x !== c);
        try {
          localStorage.setItem(colsKey(avail), JSON.stringify(chosen));
        } catch {
          /* private mode: the choice lasts for this page only */
        }
        drawTable();
      });
      return h('label', { class: 'check', for: box.id }, box, ' ', labelOf(c));
    }));
    drawTable();
  };
  const drawTable = () => {
    // Each cell's content sits in a block with a bounded width, so a table with many columns
    // grows wider than its card and scrolls (with the cue) instead of squeezing every column.
    const boxed = (c) => ({ ...c, render: (it) => h('div', { class: 'cell' }, c.render(it)) });
    const t = table([
      ...chosen.map(column).map(boxed),
      { label: 'Item', class: 'open-col', render: (it) => h('button', { type: 'button', class: 'btn btn-small item-open', 'aria-label': `Open item ${items.indexOf(it) + 1}: ${itemTitle(it) || it.url}` }, 'Open') },
    ], { caption, empty });
    t.add(items);
    const show = (k) => openItem(items[k], { index: k, total: items.length, onNav: show });
    t.tbody.addEventListener('click', (e) => {
      if (e.target.closest('a')) return;
      const tr = e.target.closest('tr');
      if (!tr || tr.classList.contains('empty')) return;
      show([...t.tbody.children].indexOf(tr));
    });
    for (const tr of t.tbody.children) if (!tr.classList.contains('empty')) tr.classList.add('clickable');
    clear(host).append(t.el);
    countEl.textContent = items.length ? `${items.length} item${items.length === 1 ? '' : 's'} shown · click a row to read it` : '';
  };
  let tag = null;
  const tagOf = () => tag;
  render();
  return {
    el,
    update(next) {
      items = next;
      render();
    },
    /** What the empty table says (a finished run with no items is not "No items yet"). */
    setEmpty(text) {
      if (text === empty) return;
      empty = text;
      // Only an empty table shows it: a table with rows is not redrawn (a row may be under the pointer).
      if (!items.length) drawTable();
    },
    /** The change-tracking tag of the run (the change badges link to that history). */
    setTag(t) {
      tag = t ?? null;
    },
    get items() {
      return items;
    },
  };
}
