import { h, field } from '../lib/dom.js';
import { busy, hideError } from '../lib/ui.js';
import { loginWithKey, loginWithPassword } from '../lib/session.js';

const safeNext = (q) => {
  const n = q.get('next') ?? '';
  return /^\/[\w/?=&.%-]*$/.test(n) && !n.startsWith('/login') ? `#${n}` : '#/runs';
};

export async function login(page, ctx) {
  const email = h('input', { type: 'email', id: 'login-email', name: 'email', autocomplete: 'username', required: true });
  const password = h('input', { type: 'password', id: 'login-password', name: 'password', autocomplete: 'current-password', required: true });
  const submit = h('button', { type: 'submit', class: 'btn btn-primary', id: 'login-submit' }, 'Log in');
  const form = h('form', { class: 'form', 'aria-labelledby': 'login-title' },
    h('h2', { id: 'login-title' }, 'Log in'),
    field('Email', email),
    field('Password', password),
    h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    hideError();
    busy(submit, async () => {
      await loginWithPassword(email.value.trim(), password.value);
      password.value = '';
      ctx.navigate(safeNext(ctx.query));
    }, 'Login failed');
  });

  const key = h('input', { type: 'password', id: 'login-key', name: 'api_key', autocomplete: 'off', spellcheck: 'false', placeholder: 'glr_…', required: true, class: 'mono' });
  const keySubmit = h('button', { type: 'submit', class: 'btn', id: 'login-key-submit' }, 'Use this key');
  const keyForm = h('form', { class: 'form', 'aria-labelledby': 'key-title' },
    h('h2', { id: 'key-title' }, 'Or use an API key'),
    field('API key', key, 'Kept in this browser tab only (sessionStorage) and sent as a Bearer token. Settings pages need a key with the admin scope.'),
    h('div', { class: 'form-actions' }, keySubmit));
  keyForm.addEventListener('submit', (e) => {
    e.preventDefault();
    hideError();
    busy(keySubmit, async () => {
      await loginWithKey(key.value);
      key.value = '';
      ctx.navigate(safeNext(ctx.query));
    }, 'That key did not work');
  });

  page.append(
    h('div', { class: 'login' },
      h('h1', { tabindex: '-1' }, 'Gleaner console'),
      h('p', { class: 'lead' }, 'Governed web scraping and data collection. Log in to manage runs, queries, jobs, stored results and settings.'),
      h('div', { class: 'login-grid' }, h('div', { class: 'card' }, form), h('div', { class: 'card' }, keyForm)),
      h('p', { class: 'hint' }, 'Console users are created by an operator: ', h('code', {}, 'npm run admin -- users create …'), '. API reference: ', h('a', { href: '/docs' }, '/docs'), '.')),
  );
  email.focus();
}
