// Runbook steps as forms (issue 29): one card per step with its action, selector, value and
// options; every edit rewrites the step list (the caller keeps the JSON view in step), and
// `set(steps)` rebuilds the cards from JSON edited by hand. Fields a card does not show are kept
// as they are, so nothing typed in the JSON view is lost by editing a form.
import { h, clear, nextId } from './dom.js';
import { attachPicker, fieldsOfItem } from './selector-picker.js';

const ACTIONS = ['goto', 'click', 'fill', 'wait_for', 'scroll', 'extract', 'paginate', 'content', 'screenshot'];
const FORMATS = ['markdown', 'text', 'links', 'metadata'];

/** A new step of an action: what it needs, empty (the author fills it in; nothing points at a made-up site). */
export function blankStep(action) {
  switch (action) {
    case 'goto': return { action, url: '' };
    case 'click': case 'wait_for': return { action, selector: '' };
    case 'fill': return { action, selector: '', value: '' };
    case 'scroll': return { action, times: 1 };
    case 'extract': return { action, fields: { title: { selector: '' } } };
    case 'paginate': return { action, next: '', max_pages: 5 };
    case 'content': return { action, formats: ['markdown', 'metadata'] };
    default: return { action };
  }
}

/**
 * The step forms. opts: onChange(steps) after every edit; pickFor(index) -> { url(), steps(),
 * input() } for the selector picker (the page as the steps before `index` leave it).
 * Returns { el, set(steps), get(), setInvalid(message), showErrors(Map<index, string[]>) }.
 */
export function stepForms({ onChange, pickFor }) {
  let steps = [];
  const list = h('ol', { class: 'step-cards', id: 'rb-step-cards', 'aria-label': 'Steps' });
  const note = h('p', { class: 'hint', id: 'rb-steps-note', 'aria-live': 'polite' });
  const el = h('div', { class: 'step-forms' }, note, list);
  const changed = () => onChange(steps);

  function set(next) {
    steps = Array.isArray(next) ? next : [];
    note.textContent = '';
    list.classList.remove('disabled');
    render();
  }

  function render() {
    const focusedId = document.activeElement?.closest?.('#rb-step-cards') ? document.activeElement.id : null;
    clear(list).append(...steps.map((s, i) => card(s, i)));
    if (focusedId) document.getElementById(focusedId)?.focus();
  }

  function card(step, i) {
    const st = step && typeof step === 'object' ? step : {};
    const n = i + 1;
    const legendId = `rb-step-${n}-title`;
    const action = h('select', { id: `rb-step-${n}-action`, 'aria-label': `Step ${n} action` },
      ACTIONS.map((a) => h('option', { value: a, selected: a === st.action }, a)));
    action.addEventListener('change', () => {
      steps[i] = { ...blankStep(action.value), ...carry(st, action.value) };
      render();
      changed();
    });
    const move = (d) => {
      const j = i + d;
      if (j < 0 || j >= steps.length) return;
      [steps[i], steps[j]] = [steps[j], steps[i]];
      render();
      changed();
      document.getElementById(`rb-step-${j + 1}-action`)?.focus();
    };
    const tools = h('div', { class: 'actions step-tools' },
      h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Move step ${n} up`, disabled: i === 0, onclick: () => move(-1) }, '↑'),
      h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Move step ${n} down`, disabled: i === steps.length - 1, onclick: () => move(1) }, '↓'),
      h('button', { type: 'button', class: 'btn btn-small btn-danger', 'aria-label': `Remove step ${n}`, onclick: () => { steps.splice(i, 1); render(); changed(); } }, 'Remove'));
    const body = h('div', { class: 'step-body' });
    const errs = h('div', { class: 'step-errors', id: `rb-step-${n}-errors` });
    const li = h('li', { class: 'step-card', dataset: { step: String(i) }, 'aria-labelledby': legendId },
      h('div', { class: 'step-head' }, h('span', { class: 'step-no', id: legendId }, `Step ${n}`), action, tools),
      body, errs);
    const set = (k, v) => {
      if (v === undefined || v === '' || (Array.isArray(v) && !v.length)) delete st[k];
      else st[k] = v;
      steps[i] = st;
      changed();
    };
    const ctl = (label, input, hint) => {
      input.id ||= nextId(`rb-s${n}`);
      input.setAttribute('aria-label', `Step ${n} ${label}`);
      return h('div', { class: 'field' }, h('label', { for: input.id }, label), input, hint ? h('small', { class: 'hint' }, hint) : null);
    };
    const text = (k, label, { placeholder, picker, mono } = {}) => {
      const input = h('input', { type: 'text', value: typeof st[k] === 'string' ? st[k] : '', placeholder, class: mono ? 'mono' : null, id: `rb-step-${n}-${k}` });
      input.addEventListener('input', () => set(k, input.value));
      const f = ctl(label, input);
      if (picker) attachPicker(input, { ...pickFor(i), item: picker.item, wantsItem: picker.wantsItem, onPick: picker.onPick });
      return f;
    };
    const int = (k, label, min, max) => {
      const input = h('input', { type: 'number', min: String(min), max: String(max), value: st[k] ?? '', id: `rb-step-${n}-${k}` });
      input.addEventListener('input', () => set(k, input.value === '' ? undefined : Number(input.value)));
      return ctl(label, input);
    };
    const tri = (k, label, yes, no, auto) => {
      const sel = h('select', { id: `rb-step-${n}-${k}` },
        h('option', { value: '', selected: st[k] === undefined }, auto),
        h('option', { value: 'true', selected: st[k] === true }, yes),
        h('option', { value: 'false', selected: st[k] === false }, no));
      sel.addEventListener('change', () => set(k, sel.value === '' ? undefined : sel.value === 'true'));
      return ctl(label, sel);
    };
    /** A value: literal text, a run input ({input}) or a tenant secret ({secret}). */
    const ref = (k, label, kinds) => {
      const v = st[k];
      const kind = v && typeof v === 'object' ? ('input' in v ? 'input' : 'secret') : 'text';
      const kindSel = h('select', { id: `rb-step-${n}-${k}-kind`, 'aria-label': `Step ${n} ${label} comes from` },
        kinds.map(([val, name]) => h('option', { value: val, selected: val === kind }, name)));
      const input = h('input', { type: 'text', id: `rb-step-${n}-${k}`, value: v && typeof v === 'object' ? (v.input ?? v.secret ?? '') : (v ?? ''), placeholder: kind === 'text' ? (k === 'url' ? 'https://… the page to start on' : '') : 'name' });
      const write = () => {
        input.placeholder = kindSel.value === 'text' ? (k === 'url' ? 'https://… the page to start on' : '') : 'name';
        // Required either way: an empty literal stays (the save then says what is missing).
        st[k] = kindSel.value === 'text' ? input.value : { [kindSel.value]: input.value };
        steps[i] = st;
        changed();
      };
      input.addEventListener('input', write);
      kindSel.addEventListener('change', write);
      input.setAttribute('aria-label', `Step ${n} ${label}`);
      return h('div', { class: 'field' }, h('label', { for: input.id }, label), h('div', { class: 'inline-form' }, kindSel, input));
    };
    switch (st.action) {
      case 'goto':
        body.append(ref('url', 'URL', [['text', 'URL'], ['input', 'Run input']]), text('wait_for', 'Wait for (optional)', { picker: {}, mono: true }));
        break;
      case 'click':
        body.append(text('selector', 'Selector', { picker: {}, mono: true }), tri('navigation', 'Navigation', 'Wait for the page it opens', 'Never wait', 'Detect'));
        break;
      case 'fill':
        body.append(text('selector', 'Selector', { picker: {}, mono: true }), ref('value', 'Value', [['text', 'Text'], ['input', 'Run input'], ['secret', 'Tenant secret']]));
        break;
      case 'wait_for':
        body.append(text('selector', 'Selector', { picker: {}, mono: true }), int('timeout_ms', 'Timeout (ms)', 100, 120000));
        break;
      case 'scroll':
        body.append(int('times', 'Times', 1, 50), int('delay_ms', 'Delay between (ms)', 0, 5000));
        break;
      case 'extract':
        body.append(text('item_selector', 'Item selector (optional: one item per match)', {
          mono: true,
          // Picking the repeated item (a product card) adds the fields found inside it (issue 41
          // item 2): fields already there stay, except the new step's untouched starting field.
          picker: {
            wantsItem: true,
            onPick: (_sel, picked) => {
              if (!picked?.fields?.length) return;
              st.fields = mergeItemFields(st.fields, fieldsOfItem(picked.fields));
              steps[i] = st;
              changed();
              render();
              // The card was drawn anew: its item selector counts its matches again.
              document.getElementById(`rb-step-${n}-item_selector`)?.dispatchEvent(new Event('input', { bubbles: true }));
            },
          },
        }), fieldsTable(st, i, n, changed, pickFor));
        break;
      case 'paginate':
        body.append(text('next', 'Next-page link', { picker: {}, mono: true }), int('max_pages', 'Max pages', 1, 50));
        break;
      case 'content': {
        const box = h('fieldset', { class: 'field checks' }, h('legend', {}, 'Formats'),
          FORMATS.map((f) => {
            const cb = h('input', { type: 'checkbox', id: `rb-step-${n}-fmt-${f}`, checked: (st.formats ?? ['markdown', 'metadata']).includes(f) });
            cb.addEventListener('change', () => set('formats', FORMATS.filter((x) => document.getElementById(`rb-step-${n}-fmt-${x}`)?.checked)));
            return h('label', { class: 'check', for: cb.id }, cb, ` ${f}`);
          }));
        const list = (k, label) => {
          const input = h('input', { type: 'text', class: 'mono', id: `rb-step-${n}-${k}`, value: (st[k] ?? []).join(', '), placeholder: 'main, .article' });
          input.addEventListener('input', () => set(k, input.value.split(',').map((s) => s.trim()).filter(Boolean)));
          const f = ctl(label, input);
          attachPicker(input, { ...pickFor(i), mode: 'list' });
          return f;
        };
        body.append(box, tri('only_main_content', 'Only main content', 'On', 'Off', 'Default (on)'), list('include_tags', 'Include tags'), list('exclude_tags', 'Exclude tags'));
        break;
      }
      case 'screenshot': {
        const cb = h('input', { type: 'checkbox', id: `rb-step-${n}-full_page`, checked: !!st.full_page });
        cb.addEventListener('change', () => set('full_page', cb.checked || undefined));
        body.append(text('name', 'Name (optional)'), h('label', { class: 'check', for: cb.id }, cb, ' Whole page'));
        break;
      }
      default:
        body.append(h('p', { class: 'hint' }, `Unknown action ${JSON.stringify(st.action)}: choose one, or fix it in the JSON view.`));
    }
    return li;
  }

  return {
    el,
    set,
    get: () => steps,
    /** The JSON view does not parse: the cards keep their last state, greyed, with the reason. */
    setInvalid(message) {
      note.textContent = `The JSON view has an error (${message}); the forms show the last valid steps until it is fixed.`;
      list.classList.add('disabled');
    },
    /** Problems shown once, in the card of the step they belong to. */
    showErrors(byStep) {
      for (const c of list.querySelectorAll('.step-card')) {
        const i = Number(c.dataset.step);
        const errs = c.querySelector('.step-errors');
        const msgs = byStep.get(i) ?? [];
        c.classList.toggle('has-error', msgs.length > 0);
        clear(errs).append(...(msgs.length ? [h('ul', { class: 'detail-list' }, msgs.map((m) => h('li', {}, m)))] : []));
      }
    },
  };
}

/**
 * A step's fields with a picked item's proposed fields added: a proposed field whose selector is
 * already used, or whose name is taken, is left out; the starting field of a new step (`title`
 * with an empty selector or `h1`, never edited) gives way to them.
 */
export function mergeItemFields(current, proposed) {
  const cur = current && typeof current === 'object' ? { ...current } : {};
  const names = Object.keys(cur);
  if (names.length === 1 && names[0] === 'title' && ['', 'h1'].includes(cur.title?.selector ?? '') && !cur.title?.attr && !cur.title?.all) delete cur.title;
  const used = new Set(Object.values(cur).map((f) => f?.selector));
  for (const [name, spec] of Object.entries(proposed)) {
    if (used.has(spec.selector) || name in cur) continue;
    cur[name] = spec;
  }
  return cur;
}

/** What a step keeps when its action changes: a selector stays a selector. */
function carry(st, action) {
  const sel = st.selector ?? st.next ?? st.item_selector;
  if (!sel) return {};
  if (['click', 'fill', 'wait_for'].includes(action)) return { selector: sel };
  if (action === 'paginate') return { next: sel };
  return {};
}

/** An extract step's fields: name, selector (with the picker), attribute, every match. */
function fieldsTable(st, i, n, changed, pickFor) {
  const host = h('fieldset', { class: 'field fields-table' }, h('legend', {}, 'Fields'));
  const rows = h('div', { class: 'field-rows' });
  const entries = () => Object.entries(st.fields && typeof st.fields === 'object' ? st.fields : {});
  const write = (list) => {
    st.fields = Object.fromEntries(list);
    changed();
  };
  const draw = () => {
    const list = entries();
    clear(rows).append(...list.map(([name, spec], j) => {
      const id = `rb-step-${n}-field-${j + 1}`;
      const nameIn = h('input', { type: 'text', id: `${id}-name`, value: name, 'aria-label': `Step ${n} field ${j + 1} name`, class: 'mono' });
      const selIn = h('input', { type: 'text', id: `${id}-selector`, value: spec?.selector ?? '', 'aria-label': `Step ${n} field ${name} selector`, class: 'mono', placeholder: '.price' });
      const attrIn = h('input', { type: 'text', id: `${id}-attr`, value: spec?.attr ?? '', 'aria-label': `Step ${n} field ${name} attribute`, placeholder: 'text', class: 'mono' });
      const allIn = h('input', { type: 'checkbox', id: `${id}-all`, checked: !!spec?.all });
      const update = () => {
        const cur = entries();
        const next = { ...(cur[j]?.[1] ?? {}), selector: selIn.value };
        if (attrIn.value.trim()) next.attr = attrIn.value.trim();
        else delete next.attr;
        if (allIn.checked) next.all = true;
        else delete next.all;
        cur[j] = [nameIn.value, next];
        write(cur);
      };
      for (const x of [nameIn, selIn, attrIn]) x.addEventListener('input', update);
      allIn.addEventListener('change', update);
      const remove = h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Remove field ${name}` }, '×');
      remove.addEventListener('click', () => {
        const cur = entries();
        cur.splice(j, 1);
        write(cur);
        draw();
      });
      const selWrap = h('div', { class: 'field-sel' }, selIn);
      const row = h('div', { class: 'field-row' },
        nameIn, selWrap, attrIn,
        h('label', { class: 'check', for: allIn.id }, allIn, ' all'),
        remove);
      attachPicker(selIn, { ...pickFor(i), item: () => (typeof st.item_selector === 'string' ? st.item_selector : '') });
      return row;
    }));
  };
  const add = h('button', { type: 'button', class: 'btn btn-small', id: `rb-step-${n}-add-field` }, 'Add field');
  add.addEventListener('click', () => {
    const cur = entries();
    let k = cur.length + 1;
    while (cur.some(([x]) => x === `field${k}`)) k++;
    cur.push([`field${k}`, { selector: '' }]);
    write(cur);
    draw();
    document.getElementById(`rb-step-${n}-field-${cur.length}-name`)?.focus();
  });
  draw();
  host.append(h('div', { class: 'field-row field-row-head', 'aria-hidden': 'true' }, h('span', {}, 'Name'), h('span', {}, 'Selector'), h('span', {}, 'Attribute'), h('span', {}, ''), h('span', {}, '')), rows, add);
  return host;
}
