// A small JSON code editor for the strict CSP (no eval, no inline styles, no CDN): a textarea
// over a highlighted <pre> copy of its text (spans built with textContent, never innerHTML),
// line numbers, and completion from a caller's suggest(context) (Studio: step actions and the
// fields of the step being edited). The textarea stays the real control: labels, forms, undo,
// selection and screen readers work as with any textarea.
import { h, clear, nextId } from './dom.js';

const TOKEN = /("(?:[^"\\\n]|\\.)*"?)(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b|([{}[\],:])/g;

/** Highlighted nodes for JSON text: keys, strings, numbers, literals, punctuation. */
export function highlightJson(text) {
  const frag = document.createDocumentFragment();
  let last = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    if (m.index > last) frag.append(text.slice(last, m.index));
    if (m[1] !== undefined) {
      frag.append(h('span', { class: m[2] ? 'tk-key' : 'tk-str' }, m[1]));
      if (m[2]) frag.append(h('span', { class: 'tk-punct' }, m[2]));
    } else if (m[3] !== undefined) frag.append(h('span', { class: 'tk-num' }, m[3]));
    else if (m[4] !== undefined) frag.append(h('span', { class: 'tk-lit' }, m[4]));
    else frag.append(h('span', { class: 'tk-punct' }, m[5]));
    last = m.index + m[0].length;
  }
  if (last < text.length) frag.append(text.slice(last));
  // A trailing newline needs a character after it, or the pre is a line shorter than the textarea.
  frag.append('\n');
  return frag;
}

/**
 * Where the caret is in JSON text: typing a key (`{ "wa|`), or a value of key `k` (`"action": "cl|`),
 * with the partial word, and the text of the innermost object around the caret.
 */
export function caretContext(text, pos) {
  const before = text.slice(0, pos);
  let m = /"([A-Za-z_]\w*)"\s*:\s*"([\w-]*)$/.exec(before);
  if (m) return { kind: 'value', key: m[1], prefix: m[2], object: enclosingObject(text, pos) };
  m = /([{,]\s*)"([\w-]*)$/.exec(before);
  if (m) return { kind: 'key', prefix: m[2], object: enclosingObject(text, pos) };
  m = /([{,]\s*)([A-Za-z_]\w*)$/.exec(before);
  if (m) return { kind: 'key', prefix: m[2], bare: true, object: enclosingObject(text, pos) };
  return null;
}

/** The text of the innermost {...} around pos, or '' (read forward, so strings are skipped exactly). */
function enclosingObject(text, pos) {
  const open = [];
  let inStr = false;
  for (let i = 0; i < pos; i++) {
    const c = text[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === '{' || c === '[') open.push([c, i]);
    else if (c === '}' || c === ']') open.pop();
  }
  const top = open[open.length - 1];
  if (!top || top[0] !== '{') return '';
  const start = top[1];
  let depth = 0;
  inStr = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      if (c === '\\') i++;
      else if (c === '"') inStr = false;
      continue;
    }
    if (c === '"') inStr = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return text.slice(start);
}

/**
 * codeEditor({ id, label, rows, suggest, help }) -> { el, textarea, refresh() }.
 * suggest(ctx) returns [{ label, insert, detail }]; `insert` replaces the partial word. `help`
 * is the keyboard hint under the editor (what Ctrl+Space offers there).
 */
export function codeEditor({ id = nextId('code'), rows = 16, suggest = () => [], describedBy, help: helpText = 'Ctrl+Space suggests step actions and fields; ↑ ↓ choose, Enter or Tab inserts, Esc closes. Tab indents; press Esc, then Tab, to leave the editor.' } = {}) {
  const textarea = h('textarea', { id, rows: String(rows), class: 'code-input mono', spellcheck: 'false', autocomplete: 'off', autocapitalize: 'off', wrap: 'off', 'aria-autocomplete': 'list', 'aria-describedby': describedBy });
  const pre = h('pre', { class: 'code-highlight mono', 'aria-hidden': 'true' });
  const gutter = h('pre', { class: 'code-gutter mono', 'aria-hidden': 'true' });
  const listId = `${id}-completions`;
  const list = h('ul', { class: 'completions', id: listId, role: 'listbox', 'aria-label': 'Completions', hidden: true });
  const help = h('small', { class: 'hint', id: `${id}-keys` }, helpText);
  textarea.setAttribute('aria-describedby', [describedBy, help.id].filter(Boolean).join(' '));
  textarea.setAttribute('aria-controls', listId);
  let items = [];
  let active = 0;
  let ctxNow = null;

  const refresh = () => {
    clear(pre).append(highlightJson(textarea.value));
    const n = textarea.value.split('\n').length;
    gutter.textContent = Array.from({ length: n }, (_, i) => String(i + 1)).join('\n');
    syncScroll();
  };
  const syncScroll = () => {
    pre.scrollTop = textarea.scrollTop;
    pre.scrollLeft = textarea.scrollLeft;
    gutter.scrollTop = textarea.scrollTop;
  };

  const close = () => {
    list.hidden = true;
    items = [];
    textarea.setAttribute('aria-expanded', 'false');
    textarea.removeAttribute('aria-activedescendant');
  };
  const paint = () => {
    clear(list).append(items.map((it, i) => {
      const li = h('li', { role: 'option', id: `${listId}-${i}`, 'aria-selected': String(i === active), class: i === active ? 'active' : null },
        h('code', {}, it.label), it.detail ? h('span', { class: 'hint' }, ` ${it.detail}`) : null);
      li.addEventListener('mousedown', (e) => {
        e.preventDefault();
        accept(i);
      });
      return li;
    }));
    textarea.setAttribute('aria-activedescendant', `${listId}-${active}`);
  };
  const open = (explicit) => {
    ctxNow = caretContext(textarea.value, textarea.selectionStart);
    const found = ctxNow ? suggest(ctxNow) : [];
    items = found.filter((it) => it.label.startsWith(ctxNow?.prefix ?? '') && (explicit || it.label !== ctxNow?.prefix));
    if (!items.length) return close();
    active = 0;
    list.hidden = false;
    textarea.setAttribute('aria-expanded', 'true');
    paint();
  };
  const accept = (i) => {
    const it = items[i];
    if (!it || !ctxNow) return close();
    const pos = textarea.selectionStart;
    const start = pos - ctxNow.prefix.length;
    let insert = it.insert ?? it.label;
    const after = textarea.value.slice(pos);
    if (ctxNow.kind === 'key') {
      // Complete the key and its colon: "wait_for": (the closing quote only when missing).
      // A quote right after the caret closes this key only when a colon (or the line's end) follows it.
      const closing = /^"\s*(:|$|[,}\]\n])/.test(after);
      insert = ctxNow.bare ? `"${insert}": ` : closing ? insert : `${insert}": `;
      if (closing) {
        textarea.setRangeText(insert, start, pos, 'end');
        const p2 = textarea.selectionStart + 1;
        const rest = textarea.value.slice(p2);
        if (!/^\s*:/.test(rest)) textarea.setRangeText(': ', p2, p2, 'end');
        else textarea.setSelectionRange(p2, p2);
      } else textarea.setRangeText(insert, start, pos, 'end');
    } else {
      const closing = /^"\s*([,}\]\n]|$)/.test(after);
      textarea.setRangeText(closing ? insert : `${insert}"`, start, pos, 'end');
      if (closing) textarea.setSelectionRange(textarea.selectionStart + 1, textarea.selectionStart + 1);
    }
    close();
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
    textarea.focus();
  };

  textarea.addEventListener('input', (e) => {
    refresh();
    // Suggest while a key or an action name is being typed (not after our own insert).
    if (e.isTrusted && /[\w"]$/.test(textarea.value.slice(0, textarea.selectionStart))) open(false);
    else if (e.isTrusted) close();
  });
  textarea.addEventListener('scroll', syncScroll);
  textarea.addEventListener('blur', () => setTimeout(close, 150));
  textarea.addEventListener('keydown', (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key === ' ') {
      e.preventDefault();
      open(true);
      return;
    }
    if (!list.hidden && items.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        active = (active + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length;
        paint();
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        accept(active);
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        close();
        return;
      }
    }
    // Tab indents (two spaces) when no completion is open; Esc then Tab leaves the editor.
    if (e.key === 'Tab' && !e.shiftKey && list.hidden && !textarea.dataset.tabOut) {
      e.preventDefault();
      textarea.setRangeText('  ', textarea.selectionStart, textarea.selectionEnd, 'end');
      textarea.dispatchEvent(new Event('input', { bubbles: true }));
    }
    if (e.key === 'Escape') {
      textarea.dataset.tabOut = '1';
      setTimeout(() => delete textarea.dataset.tabOut, 2000);
    }
  });

  const el = h('div', { class: 'code-editor' }, h('div', { class: 'code-frame' }, gutter, h('div', { class: 'code-area' }, pre, textarea)), list, help);
  refresh();
  return { el, textarea, refresh };
}
