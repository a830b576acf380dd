// Pick a CSS selector by pointing at the page (issue 29). The page is rendered by the service's
// own browser (POST /dashboard/api/studio/preview: the same egress guard, target policy and
// robots.txt as any scrape) and comes back as a PNG plus the boxes of its visible elements; the
// console draws the boxes over the image. No page script and no page markup ever runs or renders
// in the console's origin: no iframe, no innerHTML; the page's HTML snapshot is only sent back to
// POST /dashboard/api/studio/match, which counts a selector with the engine's own selector engine.
//
// Use it on any selector input:
//   attachPicker(input, { url: () => 'https://…' })            // a "Pick" button and a match count
//   attachPickers(root)   // every <input data-picker-url-from="#url-input"> under root
//     data-picker-mode="list" appends to a comma-separated list (include_tags, exclude_tags)
//     data-picker-item-from="#item-selector" counts inside the items (css-extract fields)
import { h, clear, nextId } from './dom.js';
import { post } from './api.js';

const previews = new Map();

/** The preview of a page (after `steps`), cached per URL and steps for the page's life. */
export function previewOf(url, steps = [], input = {}) {
  const key = JSON.stringify([url, steps, input]);
  if (!previews.has(key)) {
    const p = post('/dashboard/api/studio/preview', { url, ...(steps.length ? { steps } : {}), ...(Object.keys(input).length ? { input } : {}) });
    p.catch(() => previews.delete(key)); // a failure is not cached: the next try asks again
    previews.set(key, p);
  }
  return previews.get(key);
}

/** The last preview's HTML for a URL (any steps), for counting without rendering again. */
async function snapshotFor(url) {
  let found = null;
  for (const [key, p] of previews) {
    if (JSON.parse(key)[0] !== url) continue;
    found = p;
  }
  if (!found) return null;
  const pv = await found.catch(() => null);
  return pv?.html ?? null;
}

/**
 * How many elements of `url`'s last preview a selector matches (null when there is no preview
 * of it yet, or the page was too large to count on): `{ count, samples }`.
 */
export async function countMatches(url, selector) {
  const html = url && selector ? await snapshotFor(url) : null;
  if (!html) return null;
  return post('/dashboard/api/studio/match', { html, selector });
}

/**
 * Text cut to `n` characters, always a string (dom.js `truncate` gives an element for long text,
 * which a template string spelled "[object HTMLSpanElement]": issue 41 item 3).
 */
export const clip = (s, n) => {
  const t = String(s ?? '').replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** A picker box's label: its tag and its text (`span “Red shoe”`). */
export const boxLabel = (b) => `${b.tag}${b.text ? ` “${clip(b.text, 40)}”` : ''}`;

/**
 * Why `sel` is not valid CSS, in words, or null (issue 41 item 4): checked by the console's own
 * selector parser as the author types, before any preview or run. The service checks again with
 * the engine's parser (400 naming the field).
 */
export function cssProblem(sel) {
  const s = String(sel ?? '').trim();
  if (!s) return null;
  try {
    document.createDocumentFragment().querySelector(s);
    return null;
  } catch {
    return `“${clip(s, 40)}” is not valid CSS${hintFor(s)}`;
  }
}

/** Where a selector most often breaks: an unclosed bracket, parenthesis or quote. */
function hintFor(s) {
  const opened = (o, c) => s.split(o).length - s.split(c).length;
  if (opened('[', ']') !== 0 || /\[\s*\[/.test(s)) return ': check the square brackets [ ] of an attribute';
  if (opened('(', ')') !== 0) return ': a parenthesis ( ) is not closed';
  if ((s.match(/"/g) ?? []).length % 2 || (s.match(/'/g) ?? []).length % 2) return ': a quote is not closed';
  if (/[>+~]\s*$|^\s*[>+~,]|,\s*$/.test(s)) return ': a combinator or comma has nothing on one side';
  return '';
}

/** "matches 3 elements: $10, $12, …" */
export function describeCount(m, scoped) {
  if (!m) return '';
  const where = scoped ? ' in the items' : '';
  if (m.count === 0) return `matches nothing${where}`;
  const s = m.samples?.filter(Boolean).map((t) => clip(t, 24)).join(', ');
  return `matches ${m.count === 1 ? '1 element' : `${m.count} elements`}${where}${s ? `: ${s}${m.count > m.samples.length ? ', …' : ''}` : ''}`;
}

/**
 * Open the picker on a page: resolves with `{ selector, count }` chosen, or null when closed.
 * `steps` lead to the state to pick from (run first by the service); `item` is an item selector
 * the choice will be used inside (a css-extract field): then "all like it" is offered first;
 * `wantsItem` (an item selector input): the repeated item an element is in is offered first, and
 * the result carries its proposed `fields`.
 */
export function openPicker({ url, steps = [], input = {}, title = 'Pick an element', item = '', wantsItem = false }) {
  return new Promise((resolve) => {
    document.querySelector('dialog.picker')?.remove();
    const headId = nextId('pick');
    const status = h('p', { class: 'hint', 'aria-live': 'polite' }, `Rendering ${url} in the service's browser…`);
    const stage = h('div', { class: 'picker-stage' });
    const choice = h('div', { class: 'picker-choice', 'aria-live': 'polite' });
    const close = h('button', { type: 'button', class: 'btn btn-small' }, 'Close');
    const dlg = h('dialog', { class: 'item-detail picker', 'aria-labelledby': headId },
      h('div', { class: 'detail-head' },
        h('div', { class: 'detail-title' }, h('h2', { id: headId }, title), status),
        h('div', { class: 'actions' }, close)),
      choice, stage);
    let result = null;
    const done = (r) => {
      result = r;
      dlg.close();
    };
    close.addEventListener('click', () => dlg.close());
    dlg.addEventListener('close', () => {
      dlg.remove();
      resolve(result);
    });
    document.body.append(dlg);
    dlg.showModal();
    close.focus();
    previewOf(url, steps, input).then(
      (pv) => {
        status.textContent = `${pv.title || pv.final_url} · ${pv.elements.length} elements to choose from${pv.full_page ? '' : ' (first screen of a long page)'}${pv.truncated ? ' (the page is long: only elements near its top could be checked in time)' : ''}. Click one.`;
        const frame = h('div', { class: 'picker-frame' },
          h('img', { src: `data:image/png;base64,${pv.screenshot}`, alt: `The page ${pv.final_url} as the service's browser rendered it`, width: String(pv.width), height: String(pv.height) }));
        // Larger boxes first, so smaller (inner) ones are drawn above them and get the click.
        const boxes = [...pv.elements].sort((a, b) => b.w * b.h - a.w * a.h);
        for (const b of boxes) {
          const label = boxLabel(b);
          const box = h('button', {
            type: 'button', class: 'pick-box', title: `${label} · ${b.selector}`, 'aria-label': `Pick ${label}`,
            dataset: { selector: b.selector },
          });
          // CSSOM, not a style attribute: the console's CSP allows no inline styles.
          Object.assign(box.style, { left: `${(b.x / pv.width) * 100}%`, top: `${(b.y / pv.height) * 100}%`, width: `${(b.w / pv.width) * 100}%`, height: `${(b.h / pv.height) * 100}%` });
          box.addEventListener('click', () => offer(b, label));
          frame.append(box);
        }
        clear(stage).append(frame);
      },
      (err) => {
        status.textContent = '';
        clear(stage).append(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'The page could not be shown: '), err.message ?? String(err), err.code ? h('span', { class: 'hint' }, ` (${err.code})`) : null));
      },
    );
    function offer(b, label) {
      for (const el of stage.querySelectorAll('.pick-box.chosen')) el.classList.remove('chosen');
      stage.querySelector(`.pick-box[data-selector="${CSS.escape(b.selector)}"]`)?.classList.add('chosen');
      const one = h('button', { type: 'button', class: 'btn btn-primary', id: 'pick-use-one' }, `Use ${b.selector}`);
      const many = b.group ? h('button', { type: 'button', class: 'btn', id: 'pick-use-all' }, `Use all ${b.group.count} like it: ${b.group.selector}`) : null;
      // The repeated thing this element is, or is inside (a product card): the item selector, with
      // the fields proposed inside it (issue 41 item 2).
      const rep = b.item ? h('button', { type: 'button', class: 'btn', id: 'pick-use-item' }, itemChoiceLabel(b.item)) : null;
      one.addEventListener('click', () => done({ selector: b.selector, count: 1 }));
      many?.addEventListener('click', () => done({ selector: b.group.selector, count: b.group.count }));
      rep?.addEventListener('click', () => done({ selector: b.item.selector, count: b.item.count, fields: b.item.fields }));
      const order = wantsItem && rep ? [rep, one, many] : item && many ? [many, one, rep] : [one, many, rep];
      clear(choice).append(
        h('p', {}, h('strong', {}, label), ` · ${b.selector} matches this one element`, b.group ? ` · ${b.group.selector} matches ${b.group.count}` : ''),
        b.item ? h('p', { class: 'hint', id: 'pick-item-fields' }, describeItem(b.item)) : null,
        h('div', { class: 'actions' }, ...order.filter(Boolean)));
      order.find(Boolean).focus();
    }
  });
}

/** "Use the repeated item: div.card (4 on the page)" */
export const itemChoiceLabel = (it) => `Use the repeated item: ${it.selector} (${it.count} on the page)`;

/** "It repeats 4 times; fields inside it: title (h3.title, “Desk”), price (span.price, “$120”)" */
export function describeItem(it) {
  const fields = (it.fields ?? []).map((f) => `${f.name} (${f.selector}${f.attr ? ` @${f.attr}` : ''}${f.sample ? `, “${clip(f.sample, 24)}”` : ''})`);
  return `It repeats ${it.count} times${fields.length ? `; fields inside it: ${fields.join(', ')}` : ''}.`;
}

/** The picked item's proposed fields as an extract step's or css-extract's `fields` object. */
export function fieldsOfItem(fields) {
  return Object.fromEntries((fields ?? []).map((f) => [f.name, { selector: f.selector, ...(f.attr ? { attr: f.attr } : {}) }]));
}

/**
 * Give a selector input a "Pick" button (opens the picker on `url()`) and a live match count.
 * opts: url() (required), steps?() and input?() (the state to pick from), item?() (an item
 * selector the value is used inside), wantsItem (an item selector: the repeated item is offered
 * first), mode 'replace' (default) or 'list' (comma-separated, appends), onPick?(selector, picked)
 * (picked.fields: the fields proposed inside a picked repeated item). Returns { button, output, recount }.
 */
export function attachPicker(inputEl, opts) {
  if (inputEl.dataset.pickerAttached) return null;
  inputEl.dataset.pickerAttached = '1';
  const output = h('output', { class: 'pick-count hint', for: inputEl.id || undefined, 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'btn btn-small pick-btn', 'aria-label': `Pick ${inputEl.getAttribute('aria-label') || inputEl.name || 'a selector'} on the page` }, 'Pick');
  // 'list': comma-separated (an input); 'lines': one per line (a textarea, as the run form's lists).
  const sep = opts.mode === 'lines' ? /\n/ : ',';
  const lastOf = (v) => (opts.mode === 'list' || opts.mode === 'lines' ? v.split(sep).map((s) => s.trim()).filter(Boolean).pop() ?? '' : v.trim());
  let seq = 0;
  const recount = async () => {
    const n = ++seq;
    const url = opts.url?.();
    const sel = lastOf(inputEl.value);
    const item = opts.item?.() ?? '';
    // Not valid CSS: said beside the field at once, nothing is counted or run.
    const bad = cssProblem(sel);
    inputEl.toggleAttribute('aria-invalid', !!bad);
    if (bad) {
      output.classList.add('warn');
      output.textContent = bad;
      return;
    }
    const m = sel ? await countMatches(url, item ? `${item} ${sel}` : sel).catch((e) => ({ error: e })) : null;
    if (n !== seq) return;
    output.classList.toggle('warn', !!m && (m.error || m.count === 0));
    output.textContent = m?.error ? (m.error.message ?? 'not a valid selector') : describeCount(m, !!item);
  };
  let timer;
  inputEl.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(recount, 400);
  });
  button.addEventListener('click', async () => {
    const url = opts.url?.();
    if (!url || !/^https?:\/\//i.test(url)) {
      output.classList.add('warn');
      output.textContent = 'Give the page URL first (an absolute http or https URL)';
      return;
    }
    const picked = await openPicker({ url, steps: opts.steps?.() ?? [], input: opts.input?.() ?? {}, item: opts.item?.() ?? '', wantsItem: !!opts.wantsItem, title: `Pick ${inputEl.getAttribute('aria-label') || 'an element'}` });
    if (!picked) return;
    if (opts.mode === 'list' && inputEl.value.trim()) inputEl.value = `${inputEl.value.replace(/[,\s]*$/, '')}, ${picked.selector}`;
    else if (opts.mode === 'lines' && inputEl.value.trim()) inputEl.value = `${inputEl.value.replace(/\s*$/, '')}\n${picked.selector}`;
    else inputEl.value = picked.selector;
    inputEl.dispatchEvent(new Event('input', { bubbles: true }));
    inputEl.dispatchEvent(new Event('change', { bubbles: true }));
    opts.onPick?.(picked.selector, picked);
    if (picked.fields) inputEl.dispatchEvent(new CustomEvent('picker-item', { bubbles: true, detail: { selector: picked.selector, count: picked.count, fields: picked.fields } }));
    clearTimeout(timer);
    await recount();
    inputEl.focus();
  });
  // The input and its button on one row, the count under them.
  const row = h('span', { class: 'pick-row' });
  inputEl.replaceWith(row);
  row.append(inputEl, button);
  row.after(output);
  return { button, output, recount };
}

/**
 * Attach a picker to every `input[data-picker-url-from]` under `root` (the attribute is a CSS
 * selector of the input holding the page URL; `data-picker-mode="list"`; `data-picker-item-from`).
 */
export function attachPickers(root = document) {
  for (const el of root.querySelectorAll('input[data-picker-url-from]')) {
    attachPicker(el, {
      url: () => document.querySelector(el.dataset.pickerUrlFrom)?.value?.trim() ?? '',
      item: el.dataset.pickerItemFrom ? () => document.querySelector(el.dataset.pickerItemFrom)?.value?.trim() ?? '' : undefined,
      mode: el.dataset.pickerMode === 'list' ? 'list' : 'replace',
    });
  }
}

/**
 * The run form's selector inputs (css-extract `fields.*.selector` and `item_selector`,
 * page-content and site-crawl `include_tags` / `exclude_tags`) get a picker on the page named by
 * the form's `url` (or `start_url`) input; inputs added later (a new field row) get one too.
 */
export function attachRunFormPickers(root) {
  const url = () => (root.querySelector('[name="url"]') ?? root.querySelector('[name="start_url"]'))?.value?.trim() ?? '';
  const item = () => root.querySelector('[name="item_selector"]')?.value?.trim() ?? '';
  const scan = () => {
    for (const el of root.querySelectorAll('input[name$=".selector"], input[name="item_selector"], textarea[name="include_tags"], textarea[name="exclude_tags"]')) {
      const isField = el.name.endsWith('.selector');
      attachPicker(el, { url, item: isField ? item : undefined, wantsItem: el.name === 'item_selector', mode: el.localName === 'textarea' ? 'lines' : 'replace' });
    }
  };
  scan();
  if (root.dataset.pickersObserved) return;
  root.dataset.pickersObserved = '1';
  new MutationObserver(scan).observe(root, { childList: true, subtree: true });
}
