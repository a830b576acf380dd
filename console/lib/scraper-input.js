// A scraper and its input, as a form built from the scraper's input_schema with a JSON tab kept
// in sync both ways, and an optional "Track changes" choice (adds the `changes` format). Used by
// the Jobs page (a job runs a scraper on a schedule); the Runs page has its own richer form.
import { h, clear, nextId } from './dom.js';
import { tabbed } from './results.js';
import { hasFields, schemaForm } from './schema-form.js';
import { attachCrawlScope } from './crawl-scope.js';

/** Scrapers whose input takes formats: ["changes"] (API.md "Scheduled runs and change tracking"). */
export const TRACKS_CHANGES = new Set(['page-content', 'css-extract', 'site-crawl']);

const exampleUrl = /^https:\/\/example\.com\/?$/;

/**
 * scraperInput({ idPrefix, scrapers, example }) -> { el, scraperSel, get(), set(scraper_id, input), fixScraper() }.
 * get() returns { scraper_id, input } or throws an Error with `.input` (the control to focus).
 */
export function scraperInput({ idPrefix = nextId('si'), scrapers = [], example = () => ({}) } = {}) {
  const scraperSel = h('select', { id: `${idPrefix}-scraper`, name: 'scraper_id', required: true },
    scrapers.map((s) => h('option', { value: s.scraper_id }, s.name && s.name !== s.scraper_id ? s.name : s.scraper_id)));
  const desc = h('small', { class: 'hint', id: `${idPrefix}-scraper-desc` });
  scraperSel.setAttribute('aria-describedby', desc.id);
  const json = h('textarea', { id: `${idPrefix}-input`, rows: '8', class: 'mono', spellcheck: 'false', 'aria-label': 'Input (JSON)' });
  const jsonNote = h('p', { class: 'hint', 'aria-live': 'polite' }, 'The input as JSON; the Form tab follows it.');
  const formHost = h('div', { id: `${idPrefix}-fields` });
  const tabs = tabbed('Job input', [['Form', formHost], ['JSON', h('div', {}, json, jsonNote)]]);
  const track = h('input', { type: 'checkbox', id: `${idPrefix}-track` });
  const trackWhy = h('small', { class: 'hint', id: `${idPrefix}-track-hint` });
  track.setAttribute('aria-describedby', trackWhy.id);
  const tag = h('input', { type: 'text', id: `${idPrefix}-tag`, maxlength: '64', placeholder: 'default', spellcheck: 'false' });
  const trackBox = h('div', { class: 'field' },
    h('label', { class: 'check', for: track.id }, track, ' Track changes'), trackWhy,
    h('div', { class: 'field', hidden: true, id: `${idPrefix}-tag-field` }, h('label', { for: tag.id }, 'Change tag (optional)'), tag,
      h('small', { class: 'hint' }, 'A name for this history of the pages: each run is compared with the last copy saved under the same tag. Leave it empty for "default"; use another tag to keep a separate history of the same pages.')));
  let sform = null;
  let lastWritten = '';

  const current = () => {
    if (json.value !== lastWritten || !sform) {
      const v = JSON.parse(json.value || '{}');
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('the input must be a JSON object');
      return v;
    }
    return sform.get();
  };
  const withChanges = (input) => {
    const out = { ...input };
    const formats = (Array.isArray(out.formats) ? out.formats : []).filter((f) => f !== 'changes');
    if (track.checked && TRACKS_CHANGES.has(scraperSel.value)) {
      out.formats = [...formats, 'changes'];
      // One tag field: this one (the input form's own change_options.tag is hidden).
      const co = { ...(out.change_options ?? {}) };
      if (tag.value.trim()) co.tag = tag.value.trim();
      else delete co.tag;
      if (Object.keys(co).length) out.change_options = co;
      else delete out.change_options;
    } else {
      if (formats.length) out.formats = formats;
      else delete out.formats;
      if (out.change_options) delete out.change_options.tag;
      if (out.change_options && !Object.keys(out.change_options).length) delete out.change_options;
    }
    return out;
  };
  const syncJson = () => {
    try {
      json.value = lastWritten = JSON.stringify(sform ? sform.get() : {}, null, 2);
      json.removeAttribute('aria-invalid');
    } catch (err) {
      jsonNote.textContent = `The form has a problem: ${err.message}`;
    }
  };
  json.addEventListener('input', () => {
    try {
      const v = JSON.parse(json.value || '{}');
      sform?.set(v);
      lastWritten = json.value;
      readTrack(v);
      json.removeAttribute('aria-invalid');
      jsonNote.textContent = 'The input as JSON; the Form tab follows it.';
    } catch (err) {
      json.setAttribute('aria-invalid', 'true');
      jsonNote.textContent = `Not valid JSON yet (${err.message}); the form keeps its last values.`;
    }
  });
  const readTrack = (input) => {
    track.checked = Array.isArray(input?.formats) && input.formats.includes('changes');
    tag.value = input?.change_options?.tag ?? '';
    showTag();
  };
  const showTag = () => {
    trackBox.querySelector(`#${idPrefix}-tag-field`).hidden = !track.checked;
    // The input form's change options (what to ignore) matter only while tracking changes.
    const co = formHost.querySelector('[data-field="change_options"]');
    if (co) co.hidden = !track.checked;
  };
  track.addEventListener('change', showTag);
  const trackAvailability = () => {
    const ok = TRACKS_CHANGES.has(scraperSel.value);
    track.disabled = !ok;
    if (!ok) track.checked = false;
    showTag();
    trackWhy.textContent = ok
      ? 'Each run compares every page with its last snapshot: new, changed and removed pages show under Runs → Changes (noise such as timestamps and tracking parameters is ignored).'
      : 'Not available for this scraper: change tracking works with Page content, CSS extract and Site crawl.';
  };
  const pick = (input) => {
    const s = scrapers.find((x) => x.scraper_id === scraperSel.value);
    desc.textContent = s?.description ?? '';
    const schema = s?.input_schema ?? { type: 'object' };
    if (hasFields(schema)) {
      sform = schemaForm(schema, { idPrefix: `${idPrefix}-in`, onChange: syncJson });
      // formats and change_options are set by "Track changes", not by hand in the form.
      const start = input ?? example(schema) ?? {};
      for (const [k, v] of Object.entries(start)) if (typeof v === 'string' && exampleUrl.test(v)) delete start[k];
      sform.set(start);
      clear(formHost).append(sform.el);
      attachCrawlScope(formHost);
      // The formats box "changes" is what "Track changes" below sets: one control, not two.
      const dup = formHost.querySelector('[data-field="formats"] input[value="changes"]')?.closest('label');
      if (dup) dup.hidden = true;
      // Likewise the tag: "Change tag" under "Track changes" is the one tag field.
      const dupTag = formHost.querySelector('[data-field="change_options.tag"]');
      if (dupTag) dupTag.hidden = true;
      tabs.select(0);
    } else {
      sform = null;
      clear(formHost).append(h('p', { class: 'hint' }, 'This scraper does not describe its input fields: write its input in the JSON tab.'));
      tabs.select(1);
    }
    syncJson();
    if (!sform) json.value = lastWritten = JSON.stringify(input ?? {}, null, 2);
    trackAvailability();
    readTrack(input ?? {});
  };
  scraperSel.addEventListener('change', () => pick());
  if (scrapers.length) pick();

  const el = h('div', { class: 'scraper-input' },
    h('div', { class: 'field' }, h('label', { for: scraperSel.id }, 'Scraper'), scraperSel, desc),
    h('div', { class: 'field' }, h('span', { class: 'label' }, 'Input'), tabs.el),
    trackBox);
  return {
    el,
    formHost,
    scraperSel,
    get() {
      let input;
      try {
        input = current();
      } catch (err) {
        tabs.select(err.input ? 0 : 1);
        if (!err.input) err.input = json;
        throw err;
      }
      return { scraper_id: scraperSel.value, input: withChanges(input) };
    },
    set(scraperId, input) {
      if (scraperId && !scrapers.some((x) => x.scraper_id === scraperId)) scraperSel.append(h('option', { value: scraperId }, scraperId));
      scraperSel.value = scraperId;
      pick(input ?? {});
    },
    fixScraper() {
      scraperSel.disabled = true;
    },
  };
}
