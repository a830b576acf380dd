// Errors next to what caused them: a failed submit shows its message in the form, just above
// its buttons, and each validation detail under the field it names (marked aria-invalid), rather
// than in the banner at the top of the page. Service wording a person cannot act on is reworded.
import { h, clear, isAbort } from './dom.js';
import { ApiError } from './api.js';
import { busy } from './ui.js';

/** Service messages reworded for people ("Invalid discriminator value" means an unknown kind). */
export function peopleText(message) {
  return String(message ?? '')
    .replace(/Invalid discriminator value\.?\s*(?:Expected\s*([^\n]*))?/i, (_, exp) =>
      exp ? `not a kind this accepts (one of ${exp.replace(/['"]/g, '').replace(/\s*\|\s*/g, ', ')})` : 'not a kind this accepts')
    .replace(/^Required$/i, 'is required')
    .replace(/^Invalid url$/i, 'is not a valid URL (https://…)')
    .replace(/Invalid input: expected (\w+), received undefined/i, 'is required')
    .replace(/Invalid input: expected (\w+), received (\w+)/i, 'should be a $1, not a $2');
}

const TARGET_CODES = new Set(['target_forbidden', 'target_not_authorized', 'target_unresolvable']);
/** The URL fields of scraper inputs, first found wins (as the service checks them). */
const URL_FIELDS = ['url', 'start_url', 'urls', 'start_urls', 'input.url', 'input.start_url'];
/** Why a target is refused, in words, with the service's reason. */
const targetWords = (api) => {
  const lead = api.code === 'target_forbidden' ? 'Gleaner may not fetch this address'
    : api.code === 'target_not_authorized' ? 'This site is not on your target policy\'s allowlist (Settings → Target policy)'
      : 'This host name could not be found';
  return `${lead}: ${api.message}`;
};

/**
 * The error slot of a form: `el` goes just above its buttons. show(err, { prefix }) puts the
 * message there and each detail whose path names a field of the form under that field
 * (`[data-field="…"]`, paths like "input.url" or "url"; `prefix` is stripped first). clear() removes all.
 */
export function formErrors(form, { prefix = '' } = {}) {
  const el = h('div', { class: 'form-error', 'aria-live': 'assertive' });
  const marks = [];
  const reset = () => {
    clear(el);
    for (const m of marks.splice(0)) {
      m.note.remove();
      m.control?.removeAttribute('aria-invalid');
    }
  };
  const fieldOf = (path) => {
    // "body.input.url", "/input/url" or "input.url": the part after body. and the form's prefix.
    const p = String(path ?? '').replace(/^\//, '').replace(/\//g, '.').replace(/^(body|query|params)\./, '');
    // The path as it is, then without the prefix (a form holds both "schedule" and the input's "url").
    for (let q of [p, prefix && p.startsWith(prefix) ? p.slice(prefix.length) : '']) {
      while (q) {
        const f = form.querySelector(`[data-field="${CSS.escape(q)}"]`);
        if (f) return f;
        q = q.includes('.') ? q.slice(0, q.lastIndexOf('.')) : '';
      }
    }
    return null;
  };
  return {
    el,
    clear: reset,
    show(err, context = 'Not saved') {
      if (isAbort(err)) return;
      reset();
      const api = err instanceof ApiError ? err : null;
      // A target the service refuses (egress guard, target policy, a host that does not resolve)
      // is about the URL: its reason goes under the form's URL field too.
      const urlField = TARGET_CODES.has(api?.code) && !api?.details?.length ? URL_FIELDS.find((f) => form.querySelector(`[data-field="${f}"]`)) : null;
      const details = urlField ? [{ path: urlField, message: targetWords(api) }] : api?.details ?? [];
      let placed = 0;
      for (const d of details) {
        const f = fieldOf(d.path);
        if (!f) continue;
        placed++;
        const control = f.querySelector('input, select, textarea');
        const note = h('small', { class: 'field-error', role: 'alert' }, peopleText(d.message));
        f.append(note);
        control?.setAttribute('aria-invalid', 'true');
        marks.push({ note, control });
      }
      const rest = details.filter((d) => !fieldOf(d.path));
      el.append(h('div', { class: 'error-box', role: 'alert' },
        h('strong', {}, `${context}: `),
        urlField && placed ? 'the URL is refused (the reason is under it).' : placed && !rest.length ? `${placed === 1 ? 'a field needs' : `${placed} fields need`} fixing (marked below).` : peopleText(err?.message ?? String(err)),
        rest.length ? h('ul', {}, rest.map((d) => h('li', {}, d.path ? h('code', {}, d.path) : null, d.path ? ' ' : '', peopleText(d.message)))) : null,
        api?.requestId ? h('span', { class: 'hint' }, ` (request id ${api.requestId})`) : null));
      const first = marks[0]?.control;
      if (first) first.focus();
      else el.scrollIntoView({ block: 'nearest' });
    },
  };
}

/** Mark `el` (a field's wrapper) as the place for errors about `path` (e.g. "url", "domains"). */
export function errorsAt(path, el) {
  el.dataset.field = path;
  return el;
}

/**
 * Submit `form` with `fn` while `buttons` are busy: a failure (the service's, with each detail
 * under the field it names, or one of `fn`'s own checks, thrown as an Error with an `input` to
 * focus) shows in the form just above its buttons, never in the page's banner.
 */
export function submitForm(form, buttons, context, fn, opts = {}) {
  const errors = formErrors(form, opts);
  form.insertBefore(errors.el, form.querySelector(':scope > .form-actions'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    errors.clear();
    // The buttons are busy (disabled) while fn runs, as everywhere in the console; a failure shows here.
    void busy(buttons, fn, context, (err) => {
      errors.show(err, context);
      err?.input?.focus();
    });
  });
  return errors;
}
