// Gleaner web console: a hash router over plain ES modules (no build step, no framework).
import { auth } from './lib/api.js';
import { h, isAbort } from './lib/dom.js';
import { expireNotice, hideError, showError } from './lib/ui.js';
import { logout, who } from './lib/session.js';
import { recordView } from './lib/page-view.js';

/** [pattern, module, export name, nav section]. `:name` captures one path segment. */
const ROUTES = [
  ['/login', './pages/login.js', 'login', null],
  ['/monitoring', './pages/monitoring.js', 'monitoringPage', 'monitoring'],
  ['/runs', './pages/runs.js', 'runsList', 'runs'],
  ['/runs/:id', './pages/runs.js', 'runDetail', 'runs'],
  ['/captcha', './pages/captcha.js', 'captchaPage', 'runs'],
  ['/studio', './pages/studio.js', 'studioPage', 'studio'],
  ['/studio/:id', './pages/studio.js', 'runbookEditor', 'studio'],
  ['/social', './pages/social.js', 'socialPage', 'social'],
  ['/queries', './pages/queries.js', 'queriesPage', 'social'],
  ['/queries/:id', './pages/queries.js', 'queryDetail', 'social'],
  ['/jobs', './pages/jobs.js', 'jobsList', 'runs'],
  ['/jobs/:id', './pages/jobs.js', 'jobDetail', 'runs'],
  ['/changes', './pages/changes.js', 'changesList', 'runs'],
  ['/changes/:id', './pages/changes.js', 'changeDetail', 'runs'],
  ['/search', './pages/search.js', 'searchPage', 'search'],
  ['/search/providers', './pages/search.js', 'searchProvidersPage', 'search'],
  ['/datasets', './pages/datasets.js', 'datasetsPage', 'data'],
  ['/storage', './pages/storage.js', 'storagePage', 'data'],
  ['/webhooks', './pages/webhooks.js', 'webhooksList', 'webhooks'],
  ['/webhooks/:id', './pages/webhooks.js', 'webhookDetail', 'webhooks'],
  ['/settings/keys', './pages/settings.js', 'keysPage', 'settings'],
  ['/settings/storage', './pages/settings.js', 'storageSettingsPage', 'settings'],
  ['/settings/sources', './pages/settings.js', 'sourcesPage', 'settings'],
  ['/settings/policy', './pages/settings.js', 'policyPage', 'settings'],
  ['/settings/domains', './pages/domains.js', 'domainsPage', 'settings'],
  ['/settings/secrets', './pages/settings.js', 'secretsPage', 'settings'],
  ['/settings/profiles', './pages/settings.js', 'profilesPage', 'settings'],
  ['/settings/audit', './pages/settings.js', 'auditPage', 'settings'],
];
const HOME = '/runs';

function parseHash() {
  const raw = location.hash.replace(/^#/, '') || HOME;
  const [path, qs] = raw.split('?');
  return { path: path || HOME, query: new URLSearchParams(qs ?? '') };
}

function match(path) {
  const parts = path.split('/').filter(Boolean);
  for (const [pattern, mod, name, section] of ROUTES) {
    const pp = pattern.split('/').filter(Boolean);
    if (pp.length !== parts.length) continue;
    const params = {};
    let ok = true;
    for (let i = 0; i < pp.length; i++) {
      if (pp[i].startsWith(':')) {
        try {
          params[pp[i].slice(1)] = decodeURIComponent(parts[i]);
        } catch {
          ok = false;
        }
      } else if (pp[i] !== parts[i]) ok = false;
    }
    if (ok) return { mod, name, section, params };
  }
  return null;
}

export const navigate = (hash) => {
  if (location.hash === hash) route();
  else location.hash = hash;
};

function updateChrome(section) {
  const loggedIn = !!auth.get();
  document.getElementById('nav').hidden = !loggedIn;
  document.getElementById('who').hidden = !loggedIn;
  document.getElementById('who-label').textContent = who();
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.section === section) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

let current = null;
let pendingMessage = null;

async function route() {
  current?.abort();
  const ctrl = new AbortController();
  current = ctrl;
  const main = document.getElementById('main');
  const { path, query } = parseHash();
  const m = match(path);
  if (!auth.get() && m?.name !== 'login') {
    const next = path === '/login' ? '' : `?next=${encodeURIComponent(location.hash.replace(/^#/, '') || HOME)}`;
    location.replace(`#/login${next}`);
    return;
  }
  if (auth.get() && m?.name === 'login') {
    location.replace(`#${HOME}`);
    return;
  }
  hideError();
  expireNotice();
  // An item panel (a modal <dialog>) belongs to the page it was opened on.
  for (const d of document.querySelectorAll('dialog.item-detail')) d.remove();
  if (pendingMessage) {
    showError(pendingMessage.err, pendingMessage.context);
    pendingMessage = null;
  }
  updateChrome(m?.section ?? null);
  if (!m) {
    main.replaceChildren(h('h1', { tabindex: '-1' }, 'Page not found'), h('p', {}, 'There is no console page at ', h('code', {}, path), '. ', h('a', { href: `#${HOME}` }, 'Go to Runs')));
    return;
  }
  if (m.name !== 'login') recordView(path);
  main.replaceChildren(h('p', { class: 'loading' }, 'Loading…'));
  try {
    const mod = await import(m.mod);
    if (ctrl.signal.aborted) return;
    const page = h('div', { class: 'page' });
    main.replaceChildren(page);
    // Pages build their skeleton synchronously, then load (and may poll) until done or navigated away.
    const done = mod[m.name](page, { params: m.params, query, signal: ctrl.signal, navigate, refresh: route });
    // Focus the new page's heading (screen readers announce it), unless the page took focus itself.
    if (!page.contains(document.activeElement)) page.querySelector('h1')?.focus({ preventScroll: true });
    await done;
  } catch (err) {
    if (isAbort(err) || ctrl.signal.aborted) return;
    showError(err);
    if (!main.querySelector('h1')) main.replaceChildren(h('h1', { tabindex: '-1' }, 'Something went wrong'), h('p', {}, 'This page could not be shown. The error is above; try again or pick another page.'));
  }
}

window.addEventListener('hashchange', route);

// A 401 on a call with the stored key: the key expired or was revoked. Back to the login page.
window.addEventListener('gleaner:unauthorized', (e) => {
  if (!auth.get()) return;
  auth.clear();
  pendingMessage = { err: e.detail, context: 'Logged out' };
  location.hash = `#/login`;
});

// Last resort: anything unexpected still ends up visible.
window.addEventListener('unhandledrejection', (e) => {
  if (!isAbort(e.reason)) showError(e.reason);
});
window.addEventListener('error', (e) => {
  if (e.error) showError(e.error);
});

document.getElementById('logout').addEventListener('click', async (e) => {
  const b = e.currentTarget;
  b.disabled = true;
  try {
    await logout();
  } finally {
    b.disabled = false;
    navigate('#/login');
  }
});

route();
