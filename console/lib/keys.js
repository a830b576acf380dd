// API keys as people read them: a state that says what a key does now (active, retiring during
// its rotation's grace period, expired, revoked), a name that tells rotated keys apart (they share
// their name), scopes in words, and the rotation dialog with a choice of grace period.
import { h, nextId } from './dom.js';
import { whenWords } from './words.js';

/** What a key does now: 'revoked', 'expired', 'retiring' (rotated, working until it expires) or 'active'. */
export function keyState(k, now = Date.now()) {
  if (k.status === 'revoked' || k.revoked_at) return 'revoked';
  const exp = k.expires_at ? Date.parse(k.expires_at) : NaN;
  if (!Number.isNaN(exp) && exp <= now) return 'expired';
  if (k.rotated_to) return 'retiring';
  return 'active';
}

/** Badge kind and hover text of each state. */
export const KEY_STATES = {
  active: ['succeeded', 'Works'],
  retiring: ['running', 'Replaced by rotation: still works until its expiry, then stops'],
  expired: ['cancelled', 'Past its expiry: calls with it fail'],
  revoked: ['cancelled', 'Revoked: calls with it fail'],
};

/**
 * Names that tell keys apart: a key whose name another key shares (rotation keeps the name) is
 * named with its prefix and the day it was made, and the replaced one says so:
 * key “CI” (glr_Ab12…, made 2 Dec, replaced). Returns a Map key_id -> label.
 */
export function keyLabels(keys, now = new Date()) {
  const count = new Map();
  for (const k of keys) count.set(k.name, (count.get(k.name) ?? 0) + 1);
  const out = new Map();
  for (const k of keys) {
    if ((count.get(k.name) ?? 0) < 2) {
      out.set(k.key_id, `key “${k.name}”`);
      continue;
    }
    const made = whenWords(k.created_at, { now }).replace(/ at \d\d:\d\d$/, '');
    const state = keyState(k, now.getTime());
    const why = k.rotated_to ? (state === 'retiring' ? ', replaced, retiring' : ', replaced') : state === 'active' ? ', current' : state === 'revoked' ? ', revoked' : '';
    out.set(k.key_id, `key “${k.name}” (${k.prefix ?? k.key_id}…, made ${made}${why})`);
  }
  return out;
}

/** What each scope lets a key do, in words (the raw name stays beside it). */
export const SCOPE_WORDS = {
  'scrapers:read': 'list scrapers',
  'runs:read': 'read runs, results and changes',
  'runs:write': 'start and cancel runs',
  'scrape:write': 'scrape a page now',
  'runbooks:read': 'read runbooks',
  'runbooks:write': 'create and edit runbooks',
  'captcha:read': 'read challenge encounters',
  'captcha:write': 'change the challenge policy',
  'queries:read': 'read social queries',
  'queries:write': 'start social queries',
  'jobs:read': 'read scheduled jobs',
  'jobs:write': 'create, edit and run jobs',
  'storage:read': 'read stored files',
  'storage:write': 'write and delete stored files',
  'webhooks:read': 'read webhooks and deliveries',
  'webhooks:write': 'create and change webhooks',
  'secrets:use': 'let runbooks fill in stored secrets',
  'search:run': 'run web searches',
  admin: 'everything in Settings: keys, policy, secrets, audit',
  '*': 'everything',
};

/** "start and cancel runs (runs:write)". */
export const scopeText = (s) => (SCOPE_WORDS[s] ? `${SCOPE_WORDS[s]} (${s})` : s);

/** Grace periods offered when rotating (the API takes 0 to 30 days). */
export const GRACE_CHOICES = [
  [0, 'None: the old key stops now'],
  [3600, '1 hour'],
  [86_400, '24 hours'],
  [7 * 86_400, '7 days'],
  [30 * 86_400, '30 days'],
];

/**
 * The rotation dialog: what rotating does, a grace choice (24 hours preselected) and Rotate /
 * Cancel. onRotate(graceSeconds) runs the rotation; the dialog closes when it resolves and stays
 * open (its error shown) when it throws.
 */
export function rotateDialog(k, onRotate) {
  document.querySelector('dialog.rotate-key')?.remove();
  const head = nextId('dlg');
  const name = nextId('grace');
  const radios = GRACE_CHOICES.map(([s, label]) => {
    const r = h('input', { type: 'radio', name, id: nextId('grace'), value: String(s), checked: s === 86_400 });
    return h('label', { class: 'check', for: r.id }, r, ' ', label);
  });
  const go = h('button', { type: 'button', class: 'btn btn-primary', id: 'rotate-confirm' }, 'Rotate key');
  const cancel = h('button', { type: 'button', class: 'btn', id: 'rotate-cancel' }, 'Cancel');
  const msg = h('div', { class: 'form-error', 'aria-live': 'assertive' });
  const dlg = h('dialog', { class: 'item-detail rotate-key', 'aria-labelledby': head },
    h('h2', { id: head }, `Rotate key “${k.name}”`),
    h('p', {}, 'A new key with the same name and scopes is made now and shown once. The old key keeps working for the grace period you choose (time to put the new one where the old one is used), then stops.'),
    h('fieldset', { class: 'field checks' }, h('legend', {}, 'Grace period for the old key'), h('div', { class: 'check-col' }, radios)),
    msg,
    h('div', { class: 'form-actions' }, go, cancel));
  cancel.addEventListener('click', () => dlg.close());
  dlg.addEventListener('close', () => dlg.remove());
  go.addEventListener('click', async () => {
    const grace = Number(dlg.querySelector(`input[name="${name}"]:checked`)?.value ?? 86_400);
    go.disabled = true;
    go.setAttribute('aria-busy', 'true');
    try {
      await onRotate(grace);
      dlg.close();
    } catch (err) {
      msg.replaceChildren(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'Not rotated: '), err?.message ?? String(err)));
    } finally {
      go.disabled = false;
      go.removeAttribute('aria-busy');
    }
  });
  document.body.append(dlg);
  dlg.showModal();
  dlg.querySelector('input:checked')?.focus();
  return dlg;
}
