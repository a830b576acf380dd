// The script Studio's page preview evaluates in the target page, inside the service's own
// browser (never in the console): the page's size and the boxes of its visible elements, each
// with a selector proposed here and verified again by the worker on the page's HTML with the
// project's selector engine (verify-boxes.ts). It runs in an isolated world of the page
// (Tab.evaluateIsolated: the page's scripts cannot rewrite its functions, issue 37 finding 2),
// stops proposing at {@link SCRIPT_BUDGET_MS}, and is terminated by the browser past the
// evaluation's own timeout; the page's markup (ids, classes, attributes) still shapes what it
// proposes, so the worker checks every selector like a tenant's before counting it.
// Plain JavaScript source text (an expression), so no bundler helper leaks in.

/** Most boxes one preview returns. */
export const MAX_BOXES = 400;

/** Time the script gives itself to propose boxes (ms); what it found by then is returned. */
export const SCRIPT_BUDGET_MS = 3_000;

/** Most fields proposed inside one repeated item. */
export const MAX_ITEM_FIELDS = 8;

export const ELEMENT_BOXES_SCRIPT = `(() => {
  const MAX = ${MAX_BOXES};
  const until = Date.now() + ${SCRIPT_BUDGET_MS};
  const esc = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : String(s).replace(/[^\\w-]/g, (c) => '\\\\' + c));
  const matchCount = (sel) => { try { return document.querySelectorAll(sel).length; } catch (e) { return -1; } };
  const unique = (sel, el) => { try { const m = document.querySelectorAll(sel); return m.length === 1 && m[0] === el; } catch (e) { return false; } };
  const goodId = (id) => /^[A-Za-z][\\w-]{0,63}$/.test(id) && !/\\d{4,}/.test(id);
  // Classes that look generated (hashes, long digit runs, CSS-in-JS prefixes) are not stable.
  const goodClass = (c) => /^[A-Za-z_][\\w-]{0,39}$/.test(c) && !/\\d{3,}|^(css|sc|jsx|svelte|emotion|tw)-|__[A-Za-z0-9]{5,}$/.test(c);
  const attrSel = (tag, a, v) => tag + '[' + a + '="' + v.replace(/["\\\\]/g, '\\\\$&') + '"]';
  // One step of a path: the tag, with its first stable class when that tells it from its
  // siblings, else with its position among them (li.product:nth-of-type(2) > span.name).
  const seg = (el) => {
    const tag = el.localName;
    const p = el.parentElement;
    if (!p) return tag;
    const same = Array.prototype.filter.call(p.children, (c) => c.localName === tag);
    if (same.length === 1) return tag;
    const c = Array.prototype.find.call(el.classList, goodClass);
    if (c && same.filter((x) => x.classList.contains(c)).length === 1) return tag + '.' + esc(c);
    return (c ? tag + '.' + esc(c) : tag) + ':nth-of-type(' + (same.indexOf(el) + 1) + ')';
  };
  const selectorFor = (el) => {
    const tag = el.localName;
    if (el.id && goodId(el.id) && unique('#' + esc(el.id), el)) return '#' + esc(el.id);
    for (const a of ['data-testid', 'data-test', 'data-qa', 'data-cy', 'name', 'itemprop', 'aria-label']) {
      const v = el.getAttribute(a);
      if (v && v.length <= 60) { const s = attrSel(tag, a, v); if (unique(s, el)) return s; }
    }
    const classes = Array.prototype.filter.call(el.classList, goodClass).slice(0, 3);
    for (const c of classes) { const s = tag + '.' + esc(c); if (unique(s, el)) return s; }
    if (classes.length > 1) { const s = tag + classes.map((c) => '.' + esc(c)).join(''); if (unique(s, el)) return s; }
    const parts = [];
    for (let cur = el; cur && cur !== document.documentElement; cur = cur.parentElement) {
      parts.unshift(seg(cur));
      const sel = parts.join(' > ');
      if (unique(sel, el)) return sel;
      const up = cur.parentElement;
      if (up && up.id && goodId(up.id) && unique('#' + esc(up.id), up)) {
        const s = '#' + esc(up.id) + ' > ' + sel;
        if (unique(s, el)) return s;
      }
    }
    return null;
  };
  // The selector of the element's kind (its tag and first stable class) when more than one match:
  // what item_selector, or a field with all, would take.
  const groupFor = (el) => {
    const c = Array.prototype.find.call(el.classList, goodClass);
    const s = el.localName + (c ? '.' + esc(c) : '');
    const n = matchCount(s);
    return n > 1 && n <= 5000 ? { selector: s, count: n } : null;
  };
  // Repeated items (issue 41 item 2): an element with element children whose parent holds at
  // least one more sibling of the same shape (tag and stable classes) is one of a list's items
  // (a product card, a result row): offered as an item selector with its count and the fields
  // inside it, on its own box and on every box inside it.
  const shape = (el) => el.localName + '.' + Array.prototype.filter.call(el.classList, goodClass).sort().join('.');
  // How many children of each shape a parent has, counted once per parent (a list of thousands
  // of siblings stays linear).
  const shapeCounts = new Map();
  const countsOf = (p) => {
    let m = shapeCounts.get(p);
    if (!m) {
      m = new Map();
      for (const c of p.children) { const k = shape(c); m.set(k, (m.get(k) || 0) + 1); }
      shapeCounts.set(p, m);
    }
    return m;
  };
  const isItem = (el) => {
    const p = el.parentElement;
    if (!p || el.children.length === 0 || p === document.documentElement) return false;
    if (/^(html|body|head|script|style|template|svg|option|thead|tbody|tfoot)$/.test(el.localName)) return false;
    return (countsOf(p).get(shape(el)) || 0) > 1;
  };
  const fieldName = (el, taken) => {
    const c = Array.prototype.find.call(el.classList, goodClass);
    let base = (c || el.getAttribute('itemprop') || ({ a: 'link', img: 'image', h1: 'title', h2: 'title', h3: 'title', h4: 'title', time: 'date' })[el.localName] || el.localName).replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase().slice(0, 30) || 'field';
    let name = base, n = 2;
    while (taken.has(name)) name = base + '_' + n++;
    taken.add(name);
    return name;
  };
  const itemInfo = new Map();
  const itemFor = (el) => {
    if (itemInfo.has(el)) return itemInfo.get(el);
    let info = null;
    if (isItem(el)) {
      const c = Array.prototype.find.call(el.classList, goodClass);
      let sel = el.localName + (c ? '.' + esc(c) : '');
      let n = matchCount(sel);
      const siblings = countsOf(el.parentElement).get(shape(el)) || 0;
      if (n !== siblings) {
        const ps = selectorFor(el.parentElement);
        if (ps) { sel = ps + ' > ' + sel; n = matchCount(sel); }
      }
      if (n > 1 && n <= 5000) {
        const fields = [];
        const taken = new Set();
        const inner = el.querySelectorAll('*');
        for (let i = 0; i < inner.length && fields.length < ${MAX_ITEM_FIELDS}; i++) {
          const f = inner[i];
          const tag = f.localName;
          const leafText = ownText(f) && /^(a|h[1-6]|p|span|strong|em|b|small|time|td|dd|dt|li|div|label|button|code)$/.test(tag);
          if (!leafText && tag !== 'img' && tag !== 'a') continue;
          const fc = Array.prototype.find.call(f.classList, goodClass);
          const rel = tag + (fc ? '.' + esc(fc) : '');
          let m;
          try { m = el.querySelectorAll(rel); } catch (e) { continue; }
          if (m.length !== 1 || m[0] !== f) continue;
          const attr = tag === 'img' ? 'src' : tag === 'a' && !leafText ? 'href' : undefined;
          const sample = (attr ? f.getAttribute(attr) : f.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 80);
          fields.push(Object.assign({ name: fieldName(f, taken), selector: rel, sample }, attr ? { attr } : {}));
        }
        info = { selector: sel, count: n, fields };
      }
    }
    if (!info) for (let up = el.parentElement; up && up !== document.body && !info; up = up.parentElement) { if (isItem(up)) info = itemFor(up); }
    itemInfo.set(el, info);
    return info;
  };
  const meaningful = /^(a|img|button|input|select|textarea|label|h[1-6]|p|li|tr|td|th|dt|dd|article|section|nav|header|footer|main|aside|form|table|ul|ol|figure|figcaption|time|span|strong|em|b|small|code|pre|blockquote)$/;
  const ownText = (el) => Array.prototype.some.call(el.childNodes, (n) => n.nodeType === 3 && n.textContent.trim());
  const sx = window.scrollX, sy = window.scrollY;
  const out = [];
  const all = document.body ? document.body.querySelectorAll('*') : [];
  let truncated = false;
  for (let i = 0; i < all.length && out.length < MAX; i++) {
    if (Date.now() > until) { truncated = true; break; }
    const el = all[i];
    const tag = el.localName;
    if (/^(script|style|noscript|template|svg|path|br|head|meta|link)$/.test(tag)) continue;
    if (!meaningful.test(tag) && !ownText(el) && !el.id && !el.getAttribute('data-testid') && !isItem(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    const cs = getComputedStyle(el);
    if (cs.visibility === 'hidden' || cs.display === 'none' || Number(cs.opacity) === 0) continue;
    const selector = selectorFor(el);
    if (!selector) continue;
    const text = (el.innerText || el.getAttribute('alt') || el.getAttribute('value') || el.getAttribute('placeholder') || '').replace(/\\s+/g, ' ').trim().slice(0, 80);
    out.push({ selector, tag, text, x: Math.round(r.left + sx), y: Math.round(r.top + sy), w: Math.round(r.width), h: Math.round(r.height), group: groupFor(el), item: itemFor(el) });
  }
  const d = document.documentElement;
  return { truncated, width: Math.max(d.scrollWidth, window.innerWidth), height: Math.max(d.scrollHeight, document.body ? document.body.scrollHeight : 0, window.innerHeight), viewport: { width: window.innerWidth, height: window.innerHeight }, title: document.title, elements: out };
})()`;
