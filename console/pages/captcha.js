// Challenges: the CAPTCHA / challenge pages runs met (never solved) and what a run does at one.
import { h, field, select, table, badge, time, truncate, extLink, nextId } from '../lib/dom.js';
import { get, put } from '../lib/api.js';
import { busy, groupNav, pageHeader, pager, section, showNotice } from '../lib/ui.js';

const POLICIES = [
  { value: 'stop_run', label: 'stop_run: stop the run (status blocked)' },
  { value: 'skip_page', label: 'skip_page: skip that page and go on' },
];
const ACTION_LABELS = { stopped_run: 'stopped the run', skipped_page: 'skipped the page' };

/** A run id links to its run; anything else (a synchronous scrape or runbook test) is plain text. */
const runRef = (id) => (/^run_/.test(String(id ?? '')) ? h('a', { href: `#/runs/${encodeURIComponent(id)}`, class: 'mono' }, id) : h('span', { class: 'mono', title: 'a synchronous scrape or runbook test' }, id ?? '—'));

export async function captchaPage(page, ctx) {
  const policySel = select(POLICIES, '', { id: 'captcha-policy', name: 'on_challenge' });
  const current = h('span', { id: 'captcha-policy-current' });
  const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'captcha-policy-save' }, 'Save policy');
  const form = h('form', { class: 'form', 'aria-label': 'Challenge policy' },
    h('p', { class: 'hint flush' }, 'Current policy: ', current),
    field('When a run meets a CAPTCHA or challenge page', policySel,
      'stop_run ends the run with status blocked, keeping what it collected so far. skip_page records the page as skipped and the run goes on with other pages. Synchronous scrapes always skip.'),
    h('div', { class: 'form-actions' }, save));
  const show = (p) => {
    policySel.value = p.on_challenge;
    current.replaceChildren(h('code', {}, p.on_challenge));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(save, async () => {
      show(await put('/v1/captcha/policy', { on_challenge: policySel.value }));
      showNotice(`Challenge policy saved: ${policySel.value}`);
    }, 'Save challenge policy');
  });

  const t = table(
    [
      { label: 'Detected', render: (e) => time(e.detected_at) },
      { label: 'Kind', render: (e) => badge(e.kind, 'blocked') },
      { label: 'URL', class: 'wide', render: (e) => extLink(e.url, truncate(e.url, 80)) },
      { label: 'Run', render: (e) => runRef(e.run_id) },
      { label: 'What happened', render: (e) => ACTION_LABELS[e.action] ?? e.action ?? '—' },
      { label: 'Why', render: (e) => truncate(e.reason ?? '', 120) },
    ],
    { caption: 'Challenge encounters', empty: 'No run has met a CAPTCHA or challenge page.' },
  );
  const p = pager((cursor) => get('/v1/captcha/encounters', { cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  const refresh = h('button', { type: 'button', class: 'btn' }, 'Refresh');
  refresh.addEventListener('click', () => busy(refresh, () => p.first(), 'Challenges'));
  const noteId = nextId('note');
  page.append(
    pageHeader('Challenges (CAPTCHA)', refresh),
    groupNav('runs', 'captcha'),
    h('div', { class: 'callout', role: 'note', 'aria-labelledby': noteId },
      h('strong', { id: noteId }, 'Gleaner never solves CAPTCHAs or challenges. '),
      'It detects reCAPTCHA, hCaptcha, Turnstile and Cloudflare challenge pages, records them here and then stops the run or skips the page, as the policy below says. It does not use solving services, rotate identities or retry to get around them. If a site challenges Gleaner, collect that data another way, for example through the site\'s API.'),
    section('Policy', form),
    section('Encounters (newest first)', h('div', { id: 'captcha-encounters' }, t.el), p.el),
  );
  await Promise.all([
    busy(save, async () => show(await get('/v1/captcha/policy', {}, { signal: ctx.signal })), 'Challenge policy'),
    busy(refresh, () => p.first(), 'Challenges'),
  ]);
}
