// Shared UI pieces: the error banner, notices, busy buttons, JSON viewer, one-time secrets.
import { h, clear, nextId, isAbort } from './dom.js';
import { ApiError } from './api.js';
import { peopleText } from './form-errors.js';

const banner = () => document.getElementById('banner');
const notice = () => document.getElementById('notice');

/** Show an error in the banner: its message (the code on hover), request id and validation details. Never throws. */
export function showError(err, context) {
  if (isAbort(err)) return;
  const el = banner();
  if (!el) return;
  const e = err instanceof Error ? err : new Error(String(err ?? 'Unknown error'));
  const api = e instanceof ApiError ? e : null;
  const meta = [];
  if (api?.status) meta.push(`HTTP ${api.status}`);
  if (api?.requestId) meta.push(h('span', {}, 'request id ', h('code', { class: 'request-id' }, api.requestId)));
  if (api?.retryAfter) meta.push(`retry after ${api.retryAfter} s`);
  clear(el).append(
    h(
      'div',
      { class: 'banner-body' },
      h('strong', { class: 'banner-title' }, context ? `${context}: ` : 'Error: '),
      // The service's code stays on hover (and in the request's audit record), not in the words.
      h('span', { class: 'banner-message', title: api?.code ? `code ${api.code}` : null }, peopleText(e.message)),
      meta.length ? h('div', { class: 'banner-meta' }, meta.flatMap((m, i) => (i ? [' · ', m] : [m]))) : null,
      api?.details?.length
        ? h('ul', { class: 'banner-details' }, api.details.map((d) => h('li', {}, d.path ? h('code', {}, d.path) : null, d.path ? ': ' : '', d.message ? peopleText(d.message) : JSON.stringify(d))))
        : null,
    ),
    h('button', { type: 'button', class: 'btn btn-small banner-close', 'aria-label': 'Dismiss error', onclick: hideError }, 'Dismiss'),
  );
  el.hidden = false;
}

/** On navigation: a notice from the action that navigated stays; older ones go. */
export function expireNotice() {
  const el = notice();
  if (el && Date.now() - noticeAt > 1500) el.hidden = true;
}

export function hideError() {
  const el = banner();
  if (el) {
    el.hidden = true;
    clear(el);
  }
}

let noticeTimer;
let noticeAt = 0;
/** A short success message (role=status). */
export function showNotice(text) {
  const el = notice();
  if (!el) return;
  el.textContent = text;
  el.hidden = false;
  noticeAt = Date.now();
  clearTimeout(noticeTimer);
  noticeTimer = setTimeout(() => {
    el.hidden = true;
  }, 5000);
}

/**
 * Run fn with the button (or each of an array of buttons) disabled and aria-busy, re-enabled after.
 * A failure goes to `onError(err, context)`: the banner unless given (a form shows it in place,
 * submitForm). Returns fn's value, or undefined when it failed.
 */
export async function busy(button, fn, context, onError = showError) {
  const buttons = Array.isArray(button) ? button : [button];
  for (const b of buttons) {
    if (!b) continue;
    b.disabled = true;
    b.setAttribute('aria-busy', 'true');
  }
  try {
    return await fn();
  } catch (err) {
    onError(err, context);
    return undefined;
  } finally {
    for (const b of buttons) {
      if (!b) continue;
      b.disabled = false;
      b.removeAttribute('aria-busy');
    }
  }
}

/** A heading block with optional actions on the right. */
export const pageHeader = (title, ...actions) =>
  h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, title), actions.length ? h('div', { class: 'actions' }, actions) : null);

export const section = (title, ...children) => {
  const id = nextId('sec');
  return h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), children);
};

/**
 * Tabs as links (a sub-navigation): tabs = [[href, label, key]], the one whose key is `active`
 * gets aria-current=page. Used by the nav groups (Runs, Social, Data) and Settings; cls 'pills'
 * draws a smaller segmented control (a choice inside one page).
 */
export const subnav = (label, tabs, active, cls = 'subnav') =>
  h('nav', { class: cls, 'aria-label': label },
    h('ul', {}, tabs.map(([href, text, key]) => h('li', {}, h('a', { href, 'aria-current': key === active ? 'page' : false }, text)))));

/** The top-level nav groups whose pages share a sub-navigation. */
export const GROUPS = {
  runs: { label: 'Runs', tabs: [['#/runs', 'Runs', 'runs'], ['#/jobs', 'Jobs', 'jobs'], ['#/changes', 'Changes', 'changes'], ['#/captcha', 'Challenges (CAPTCHA)', 'captcha']] },
  social: { label: 'Social', tabs: [['#/social', 'Overview', 'social'], ['#/queries', 'Queries', 'queries'], ['#/jobs', 'Jobs', 'jobs']] },
};

/** The sub-navigation of a nav group, with `active` marked. */
export const groupNav = (group, active) => subnav(GROUPS[group].label, GROUPS[group].tabs, active);

export const button = (text, onclick, attrs = {}) => h('button', { type: 'button', class: 'btn', onclick, ...attrs }, text);

/** Copy text to the clipboard; falls back to selecting the text of an input. */
export function copyButton(getText, input, label = 'Copy') {
  const b = h('button', { type: 'button', class: 'btn btn-small' }, label);
  b.addEventListener('click', async () => {
    const text = getText();
    try {
      await navigator.clipboard.writeText(text);
      b.textContent = 'Copied';
    } catch {
      input?.select();
      b.textContent = 'Press Ctrl+C';
    }
    setTimeout(() => {
      b.textContent = label;
    }, 2000);
  });
  return b;
}

/** A secret shown once (API key plaintext, webhook signing secret) with a copy button. */
export function secretBox(title, value, note = 'Copy it now: it is shown only once and cannot be retrieved later.') {
  const input = h('input', { type: 'text', readOnly: true, value, class: 'secret-value mono', 'aria-label': title, spellcheck: 'false', autocomplete: 'off' });
  input.addEventListener('focus', () => input.select());
  return h('div', { class: 'secret-box', role: 'group', 'aria-label': title }, h('strong', {}, title), h('div', { class: 'secret-row' }, input, copyButton(() => value, input)), h('p', { class: 'hint' }, note));
}

/** A "Load more" pager over a cursor list. load(cursor) -> { data, next_cursor }; onPage(rows). */
export function pager(load, onPage) {
  let cursor = null;
  const more = h('button', { type: 'button', class: 'btn', hidden: true }, 'Load more');
  const status = h('span', { class: 'hint', 'aria-live': 'polite' });
  const next = async (reset) => {
    if (reset) cursor = null;
    const page = await load(cursor);
    onPage(page.data ?? [], reset);
    cursor = page.next_cursor ?? null;
    more.hidden = !cursor;
    status.textContent = '';
  };
  more.addEventListener('click', () => busy(more, () => next(false)));
  return { el: h('div', { class: 'pager' }, more, status), first: () => next(true) };
}

// ---- JSON viewer: collapsible tree (<details>, keyboard-usable) and raw text -------------

const MAX_CHILDREN = 200;
const MAX_NODES = 5000;

function jsonNode(value, key, depth, budget) {
  const keyEl = key !== undefined ? h('span', { class: 'j-key' }, typeof key === 'number' ? `${key}` : JSON.stringify(key), ': ') : null;
  if (value === null || typeof value !== 'object') {
    budget.n++;
    const type = value === null ? 'null' : typeof value;
    return h('div', { class: 'j-leaf' }, keyEl, h('span', { class: `j-${type}` }, JSON.stringify(value)));
  }
  const isArr = Array.isArray(value);
  const entries = isArr ? value.map((v, i) => [i, v]) : Object.entries(value);
  const summary = isArr ? `[ ${entries.length} item${entries.length === 1 ? '' : 's'} ]` : `{ ${entries.length} key${entries.length === 1 ? '' : 's'} }`;
  // The top two levels are open, and the first element below them (to show the shape of a list).
  const det = h('details', { class: 'j-node', open: depth < 2 || (depth === 2 && key === 0) }, h('summary', {}, keyEl, h('span', { class: 'j-summary' }, summary)));
  const body = h('div', { class: 'j-children' });
  det.append(body);
  let filled = false;
  const fill = () => {
    if (filled) return;
    filled = true;
    for (const [k, v] of entries.slice(0, MAX_CHILDREN)) {
      if (budget.n > MAX_NODES) {
        body.append(h('div', { class: 'hint' }, '… (too large to show here; see Raw or download the file)'));
        return;
      }
      body.append(jsonNode(v, k, depth + 1, budget));
    }
    if (entries.length > MAX_CHILDREN) body.append(h('div', { class: 'hint' }, `… ${entries.length - MAX_CHILDREN} more (see Raw or download the file)`));
  };
  // Open nodes are built now; closed ones when first opened.
  if (det.open) fill();
  else det.addEventListener('toggle', fill, { once: true });
  return det;
}

/** A JSON preview with Tree and Raw views. */
export function jsonView(value, { label = 'JSON' } = {}) {
  const tree = h('div', { class: 'json-tree mono', role: 'group', 'aria-label': `${label} (tree)` }, jsonNode(value, undefined, 0, { n: 0 }));
  const rawText = JSON.stringify(value, null, 2);
  const raw = h('pre', { class: 'json-raw mono', tabindex: '0', 'aria-label': `${label} (raw)`, hidden: true }, rawText.length > 2_000_000 ? `${rawText.slice(0, 2_000_000)}\n… (truncated; download the file)` : rawText);
  const treeBtn = h('button', { type: 'button', class: 'tab', 'aria-pressed': 'true' }, 'Tree');
  const rawBtn = h('button', { type: 'button', class: 'tab', 'aria-pressed': 'false' }, 'Raw');
  const show = (which) => {
    tree.hidden = which !== 'tree';
    raw.hidden = which !== 'raw';
    treeBtn.setAttribute('aria-pressed', String(which === 'tree'));
    rawBtn.setAttribute('aria-pressed', String(which === 'raw'));
  };
  treeBtn.addEventListener('click', () => show('tree'));
  rawBtn.addEventListener('click', () => show('raw'));
  return h('div', { class: 'json-view' }, h('div', { class: 'tabs', role: 'group', 'aria-label': 'View as' }, treeBtn, rawBtn), tree, raw);
}

/** Wraps a page loader so a failure leaves a visible message in place, never a blank area. */
export async function loadInto(container, fn, context) {
  try {
    await fn();
  } catch (err) {
    if (isAbort(err)) return;
    showError(err, context);
    container.append(h('p', { class: 'load-error' }, `Could not load: ${err?.message ?? err}`));
  }
}

/** "1 page", "3 pages" (word's plural: word + s unless given). */
export const plural = (n, word, many = `${word}s`) => `${n ?? 0} ${Number(n) === 1 ? word : many}`;

/** Hide the success notice now (e.g. "Run … started" once that run has ended). */
export function hideNotice() {
  const el = notice();
  if (el) el.hidden = true;
  clearTimeout(noticeTimer);
}

/** An id shown second, small, with a copy button (names come first, ids second). */
export function idChip(id, what = 'id') {
  if (!id) return null;
  const b = h('button', { type: 'button', class: 'copy-id', 'aria-label': `Copy ${what} ${id}`, title: `Copy ${id}` }, 'Copy');
  b.addEventListener('click', async (e) => {
    e.stopPropagation();
    try {
      await navigator.clipboard.writeText(id);
      b.textContent = 'Copied';
    } catch {
      b.textContent = 'Select it';
    }
    setTimeout(() => {
      b.textContent = 'Copy';
    }, 1500);
  });
  return h('span', { class: 'id-chip' }, h('code', {}, id), b);
}

const SOURCE_NAMES = { x: 'X', reddit: 'Reddit', linkedin: 'LinkedIn', youtube: 'YouTube', tiktok: 'TikTok', instagram: 'Instagram', facebook: 'Facebook' };

/**
 * Service text for console readers: "PUT /dashboard/api/sources/x {…}" (how an API client
 * stores credentials) becomes a link to that source's credentials card in Settings → Sources.
 */
export function consoleText(text) {
  const s = String(text ?? '');
  const re = /PUT \/dashboard\/api\/(?:sources\/(\w+)(?: \{[^}]*\})?|settings\/(storage|target-policy)\b[^\s;,]*)/g;
  const out = [];
  let last = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    out.push(s.slice(last, m.index));
    if (m[1]) out.push(h('a', { href: `#/settings/sources?source=${encodeURIComponent(m[1])}` }, `Settings → Sources → ${SOURCE_NAMES[m[1]] ?? m[1]}`));
    else out.push(h('a', { href: m[2] === 'storage' ? '#/settings/storage' : '#/settings/policy' }, m[2] === 'storage' ? 'Settings → Storage' : 'Settings → Target policy'));
    last = m.index + m[0].length;
  }
  out.push(s.slice(last));
  return out.filter((x) => x !== '');
}
