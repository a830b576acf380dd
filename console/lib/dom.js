// DOM helpers. Everything the console shows goes through textContent or setAttribute:
// no innerHTML anywhere, so user data (file keys, prompts, scraped text) can never become markup.
import { viewerZone, whenWords } from './words.js';

let uid = 0;
/** A unique id for label/input pairs. */
export const nextId = (prefix = 'f') => `${prefix}-${++uid}`;

const PROPS = new Set(['value', 'checked', 'disabled', 'selected', 'hidden', 'readOnly', 'required', 'multiple', 'open', 'indeterminate']);

/**
 * h('button', { class: 'btn', onclick: fn, 'aria-label': 'x' }, 'text', child, [more])
 * Strings and numbers become text nodes; null, undefined and false are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = Array.isArray(v) ? v.filter(Boolean).join(' ') : String(v);
    else if (k === 'text') el.textContent = String(v);
    else if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'for') el.setAttribute('for', String(v));
    else if (k === 'href') setSafeHref(el, v);
    else if (k === 'value' && tag === 'input') {
      el.setAttribute('value', String(v)); // also the default, so form.reset() goes back to it
      el.value = String(v);
    } else if (k === 'checked') el.defaultChecked = el.checked = !!v;
    else if (PROPS.has(k)) el[k] = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** Internal hash links and http(s) URLs only: a `javascript:` URL from data never becomes a link. */
export function safeUrl(v) {
  const s = String(v ?? '');
  if (s.startsWith('#/')) return s;
  try {
    const u = new URL(s, location.origin);
    return u.protocol === 'https:' || u.protocol === 'http:' ? u.href : null;
  } catch {
    return null;
  }
}

function setSafeHref(el, v) {
  const u = safeUrl(v);
  if (u) el.setAttribute('href', u);
}

/** An external link (opens in a new tab), or plain text when the URL is not http(s). */
export function extLink(url, text) {
  const u = safeUrl(url);
  if (!u || u.startsWith('#')) return h('span', {}, text ?? String(url ?? ''));
  return h('a', { href: u, target: '_blank', rel: 'noopener noreferrer' }, text ?? u);
}

/**
 * Empty an element; `.append(...)` on the result adds children the way h() does (null, undefined
 * and false skipped; the native append would insert the text "null").
 */
export const clear = (el) => {
  el.replaceChildren();
  return { el, append: (...children) => append(el, children) };
};

/** A labelled form field. `input` is an element; its id is set when missing. */
export function field(label, input, hint) {
  if (!input.id) input.id = nextId('in');
  const hintEl = hint ? h('small', { class: 'hint', id: `${input.id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: input.id }, label), input, hintEl);
}

/** A group of checkboxes in a fieldset; returns { el, values() }. */
export function checkboxGroup(legend, options, { checked = [], name = nextId('cb'), hint } = {}) {
  const boxes = options.map((o) => {
    const value = typeof o === 'string' ? o : o.value;
    const label = typeof o === 'string' ? o : o.label;
    const input = h('input', { type: 'checkbox', name, value, id: nextId('cb'), checked: checked.includes(value) });
    return { input, el: h('label', { class: 'check', for: input.id }, input, ' ', label) };
  });
  const el = h('fieldset', { class: 'field checks' }, h('legend', {}, legend), h('div', { class: 'check-row' }, boxes.map((b) => b.el)), hint ? h('small', { class: 'hint' }, hint) : null);
  return { el, values: () => boxes.filter((b) => b.input.checked).map((b) => b.input.value), boxes };
}

export function select(options, value, attrs = {}) {
  return h(
    'select',
    attrs,
    options.map((o) => {
      const v = typeof o === 'string' ? o : o.value;
      const l = typeof o === 'string' ? o : o.label;
      return h('option', { value: v, selected: v === value }, l);
    }),
  );
}

/**
 * A data table. columns: [{ label, render(row) -> Node|string, class? }].
 * Returns { el, tbody, add(rows), replace(inside, row), reset(), count }.
 */
export function table(columns, { caption, empty = 'Nothing here yet.' } = {}) {
  const tbody = h('tbody');
  const wrap = h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'data' },
      caption ? h('caption', { class: 'sr-only' }, caption) : null,
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col', class: c.class }, c.label)))),
      tbody,
    ),
  );
  const el = h('div', { class: 'table-box' }, scrollCue(wrap), wrap);
  let count = 0;
  const emptyRow = () => h('tr', { class: 'empty' }, h('td', { colspan: String(columns.length) }, empty));
  const rowEl = (row) => h('tr', {}, columns.map((c) => h('td', { class: c.class, 'data-label': c.label }, c.render(row) ?? '')));
  tbody.append(emptyRow());
  return {
    el,
    tbody,
    add(rows) {
      if (count === 0 && rows.length) tbody.replaceChildren();
      for (const row of rows) {
        count++;
        tbody.append(rowEl(row));
      }
    },
    /** Render `row` again in place of the table row that contains `inside` (an element of it). */
    replace(inside, row) {
      const tr = inside?.closest('tr');
      if (tr && tbody.contains(tr)) tr.replaceWith(rowEl(row));
    },
    reset() {
      count = 0;
      tbody.replaceChildren(emptyRow());
    },
    get count() {
      return count;
    },
  };
}

/**
 * A visible cue for a box that scrolls sideways: the hint "Scroll sideways for more columns"
 * shows (and the box gets class `scrolls`) only while its content is wider than it is.
 * Returns the hint element; put it before the box.
 */
export function scrollCue(box) {
  const hint = h('p', { class: 'scroll-hint', hidden: true }, 'Scroll sideways for more columns →');
  const check = () => {
    const wide = box.scrollWidth > box.clientWidth + 2;
    hint.hidden = !wide;
    box.classList.toggle('scrolls', wide);
    const atEnd = box.scrollLeft + box.clientWidth >= box.scrollWidth - 2;
    box.classList.toggle('at-end', atEnd);
  };
  if (typeof ResizeObserver !== 'undefined') {
    const ro = new ResizeObserver(check);
    ro.observe(box);
    // The table inside grows as rows arrive.
    queueMicrotask(() => box.firstElementChild && ro.observe(box.firstElementChild));
  }
  box.addEventListener('scroll', check, { passive: true });
  return hint;
}

/** A definition list from [label, value] pairs. */
export const dl = (pairs) =>
  h(
    'dl',
    { class: 'props' },
    pairs.filter(Boolean).map(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '—')]),
  );

export const badge = (text, kind) => h('span', { class: ['badge', `badge-${kind ?? String(text).replace(/[^a-z_]/g, '')}`] }, text);

/** A moment in words, in the viewer's zone ("today at 09:15", "Thu 3 Dec at 08:00"): never raw ISO. */
export function fmtDate(iso) {
  return whenWords(iso);
}

/** The full moment, to the second, with its zone: the hover text of a time. */
const fullDate = (iso) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return String(iso);
  return `${new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).format(d)} (${viewerZone().replace(/_/g, ' ')})`;
};

export const time = (iso) => (iso ? h('time', { datetime: iso, title: fullDate(iso) }, fmtDate(iso)) : '—');

export function fmtBytes(n) {
  if (n === null || n === undefined) return '—';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** `s` cut to `n` characters; when cut, a span whose title (shown on hover) is the full value. */
export const truncate = (s, n = 120) => {
  const t = String(s ?? '');
  return t.length > n ? h('span', { class: 'clipped', title: t.length > 4000 ? `${t.slice(0, 3999)}…` : t }, `${t.slice(0, n - 1)}…`) : t;
};

export const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(new DOMException('Aborted', 'AbortError'));
    }, { once: true });
  });

export const isAbort = (e) => e?.name === 'AbortError';
