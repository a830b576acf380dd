// A small, safe Markdown renderer for scraped content. It never parses HTML and never sets
// innerHTML: the source is read as plain text and turned into DOM nodes from a fixed set of tags
// (h1-h6, p, ul, ol, li, blockquote, pre, code, strong, em, del, a, hr, table, br). Raw HTML in the
// source shows as text; links are http(s) only and open in a new tab with rel=noopener noreferrer;
// images become links (a scraped page must not make the console load third-party images).
import { h, safeUrl } from './dom.js';

const MAX_BLOCKS = 5000;

/** Inline Markdown (code spans, links, images, bold, italic, strikethrough, autolinks) as nodes. */
export function inline(text) {
  const out = [];
  let buf = '';
  const flush = () => {
    if (buf) out.push(buf);
    buf = '';
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    const rest = text.slice(i);
    if (c === '\\' && i + 1 < text.length && /[\\`*_[\]()#+\-.!~|>]/.test(text[i + 1])) {
      buf += text[i + 1];
      i += 2;
      continue;
    }
    if (c === '`') {
      const m = /^(`+)([\s\S]*?[^`])\1(?!`)/.exec(rest);
      if (m) {
        flush();
        out.push(h('code', {}, m[2].trim() || m[2]));
        i += m[0].length;
        continue;
      }
    }
    if (c === '!' || c === '[') {
      const m = /^(!?)\[((?:[^\]\\]|\\.){0,1000})\]\(\s*<?([^\s()<>]*(?:\([^\s()]*\)[^\s()<>]*)*)>?(?:\s+"[^"]*")?\s*\)/.exec(rest);
      if (m) {
        flush();
        const url = safeUrl(m[3]);
        const isImage = m[1] === '!';
        const label = isImage ? `[image${m[2] ? `: ${m[2]}` : ''}]` : m[2];
        const kids = isImage ? [label] : inline(label);
        if (url && !url.startsWith('#')) out.push(h('a', { href: url, target: '_blank', rel: 'noopener noreferrer nofollow' }, kids));
        else out.push(h('span', {}, kids));
        i += m[0].length;
        continue;
      }
    }
    if (c === '<') {
      const m = /^<(https?:\/\/[^\s<>]+)>/.exec(rest);
      if (m) {
        flush();
        out.push(h('a', { href: m[1], target: '_blank', rel: 'noopener noreferrer nofollow' }, m[1]));
        i += m[0].length;
        continue;
      }
    }
    if ((c === '*' || c === '_') && text[i + 1] === c) {
      const m = c === '*' ? /^\*\*(?=\S)([\s\S]*?\S)\*\*/.exec(rest) : /^__(?=\S)([\s\S]*?\S)__/.exec(rest);
      if (m) {
        flush();
        out.push(h('strong', {}, inline(m[1])));
        i += m[0].length;
        continue;
      }
    }
    if (c === '*' || (c === '_' && !/\w/.test(text[i - 1] ?? ''))) {
      const m = c === '*' ? /^\*(?=\S)([\s\S]*?\S)\*(?!\*)/.exec(rest) : /^_(?=\S)([\s\S]*?\S)_(?!\w)/.exec(rest);
      if (m) {
        flush();
        out.push(h('em', {}, inline(m[1])));
        i += m[0].length;
        continue;
      }
    }
    if (c === '~' && text[i + 1] === '~') {
      const m = /^~~(?=\S)([\s\S]*?\S)~~/.exec(rest);
      if (m) {
        flush();
        out.push(h('del', {}, inline(m[1])));
        i += m[0].length;
        continue;
      }
    }
    if (c === 'h' && (i === 0 || /[\s(]/.test(text[i - 1]))) {
      const m = /^https?:\/\/[^\s<>()]+[^\s<>().,;:!?'"]/.exec(rest);
      if (m) {
        flush();
        out.push(h('a', { href: m[0], target: '_blank', rel: 'noopener noreferrer nofollow' }, m[0]));
        i += m[0].length;
        continue;
      }
    }
    if (c === '\n') {
      // Two trailing spaces (or a backslash) make a hard break; a plain newline is a space.
      if (/ {2,}$/.test(buf)) {
        buf = buf.replace(/ +$/, '');
        flush();
        out.push(h('br'));
      } else buf += ' ';
      i++;
      continue;
    }
    buf += c;
    i++;
  }
  flush();
  return out;
}

const isTableSep = (line) => /^\s*\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$/.test(line) && line.includes('-');
const splitRow = (line) => {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (s[i] === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += s[i];
  }
  cells.push(cur.trim());
  return cells;
};

const LIST_RE = /^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$/;

/**
 * Render Markdown source as a DocumentFragment of safe nodes. Block syntax: ATX headings, setext
 * headings, paragraphs, fenced and indented code, block quotes, (nested) lists, horizontal rules
 * and GFM tables.
 */
export function renderMarkdown(src) {
  const frag = document.createDocumentFragment();
  const lines = String(src ?? '').replace(/\r\n?/g, '\n').split('\n');
  renderBlocks(lines, frag, { n: 0 });
  return frag;
}

function renderBlocks(lines, parent, budget) {
  let i = 0;
  const para = [];
  const endPara = () => {
    if (!para.length) return;
    parent.append(h('p', {}, inline(para.join('\n'))));
    para.length = 0;
  };
  while (i < lines.length) {
    if (++budget.n > MAX_BLOCKS) {
      endPara();
      parent.append(h('p', { class: 'hint' }, '… (the rest is too long to render here; see the Text tab)'));
      return;
    }
    const line = lines[i];
    // Fenced code
    const fence = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/.exec(line);
    if (fence) {
      endPara();
      const close = new RegExp(`^\\s{0,3}${fence[1][0]}{${fence[1].length},}\\s*$`);
      const body = [];
      i++;
      while (i < lines.length && !close.test(lines[i])) body.push(lines[i++]);
      i++;
      parent.append(h('pre', { class: 'md-code' }, h('code', fence[2] ? { 'data-lang': fence[2] } : {}, body.join('\n'))));
      continue;
    }
    if (!line.trim()) {
      endPara();
      i++;
      continue;
    }
    // Indented code (not inside a paragraph)
    if (!para.length && /^( {4}|\t)/.test(line)) {
      const body = [];
      while (i < lines.length && (/^( {4}|\t)/.test(lines[i]) || !lines[i].trim())) body.push(lines[i++].replace(/^( {4}|\t)/, ''));
      while (body.length && !body[body.length - 1].trim()) body.pop();
      parent.append(h('pre', { class: 'md-code' }, h('code', {}, body.join('\n'))));
      continue;
    }
    const heading = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      endPara();
      parent.append(h(`h${heading[1].length}`, {}, inline(heading[2])));
      i++;
      continue;
    }
    if (/^\s{0,3}([-*_])(\s*\1){2,}\s*$/.test(line)) {
      endPara();
      parent.append(h('hr'));
      i++;
      continue;
    }
    // Setext heading: a paragraph line followed by === or ---
    if (para.length && /^\s{0,3}(=+|-+)\s*$/.test(line)) {
      const level = line.trim()[0] === '=' ? 'h1' : 'h2';
      parent.append(h(level, {}, inline(para.join('\n'))));
      para.length = 0;
      i++;
      continue;
    }
    if (/^\s{0,3}>/.test(line)) {
      endPara();
      const body = [];
      while (i < lines.length && lines[i].trim() && /^\s{0,3}>/.test(lines[i])) body.push(lines[i++].replace(/^\s{0,3}>\s?/, ''));
      const q = h('blockquote');
      renderBlocks(body, q, budget);
      parent.append(q);
      continue;
    }
    // GFM table: a header row, then a separator row
    if (line.includes('|') && i + 1 < lines.length && isTableSep(lines[i + 1])) {
      endPara();
      const head = splitRow(line);
      i += 2;
      const rows = [];
      while (i < lines.length && lines[i].trim() && lines[i].includes('|')) rows.push(splitRow(lines[i++]));
      parent.append(h('div', { class: 'md-table' }, h('table', {},
        h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, inline(c))))),
        h('tbody', {}, rows.map((r) => h('tr', {}, head.map((_, k) => h('td', {}, inline(r[k] ?? '')))))))));
      continue;
    }
    const li = LIST_RE.exec(line);
    if (li && (!para.length || li[1].length === 0)) {
      endPara();
      const ordered = /\d/.test(li[2]);
      const baseIndent = li[1].length;
      const list = h(ordered ? 'ol' : 'ul');
      if (ordered && parseInt(li[2], 10) !== 1) list.setAttribute('start', String(parseInt(li[2], 10)));
      while (i < lines.length) {
        const m = LIST_RE.exec(lines[i]);
        if (!m || m[1].length !== baseIndent || /\d/.test(m[2]) !== ordered) break;
        const body = [m[3]];
        i++;
        // The item's continuation: more-indented lines (nested lists, code) and lazy paragraph lines.
        while (i < lines.length) {
          const l = lines[i];
          if (!l.trim()) {
            if (i + 1 < lines.length && /^\s+/.test(lines[i + 1]) && (lines[i + 1].length - lines[i + 1].trimStart().length) > baseIndent) {
              body.push('');
              i++;
              continue;
            }
            break;
          }
          const indent = l.length - l.trimStart().length;
          if (indent > baseIndent) body.push(l.slice(Math.min(indent, baseIndent + 2 + (ordered ? 1 : 0))));
          else if (!LIST_RE.test(l) && !/^\s{0,3}(#|>|```|~~~)/.test(l)) body.push(l);
          else break;
          i++;
        }
        const item = h('li');
        const task = /^\[([ xX])\]\s+/.exec(body[0]);
        if (task) {
          body[0] = body[0].slice(task[0].length);
          item.append(task[1] === ' ' ? '☐ ' : '☑ ');
        }
        if (body.length === 1) item.append(...inline(body[0]));
        else {
          const wrap = document.createDocumentFragment();
          renderBlocks(body, wrap, budget);
          // A tight item's single paragraph reads better without the paragraph margins.
          if (wrap.firstChild?.nodeName === 'P') {
            const p = wrap.firstChild;
            const kids = [...p.childNodes];
            p.remove();
            item.append(...kids);
          }
          item.append(wrap);
        }
        list.append(item);
        while (i < lines.length && !lines[i].trim() && i + 1 < lines.length && LIST_RE.test(lines[i + 1]) && LIST_RE.exec(lines[i + 1])[1].length === baseIndent) i++;
      }
      parent.append(list);
      continue;
    }
    para.push(line.replace(/^\s{0,3}/, ''));
    i++;
  }
  endPara();
}
