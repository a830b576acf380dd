// Search: run a governed web search, see which results were allowed, denied and scraped, open a
// result's content; set up a provider's credentials with save-and-test (API.md "Search").
import { h, clear, field, select, table, badge, extLink, truncate, nextId } from '../lib/dom.js';
import { del, get, post, put, seg } from '../lib/api.js';
import { busy, consoleText, pageHeader, showNotice, subnav } from '../lib/ui.js';
import { errorsAt, submitForm } from '../lib/form-errors.js';
import { renderMarkdown } from '../lib/markdown.js';

const TABS = [['#/search', 'Search', 'search'], ['#/search/providers', 'Providers', 'providers']];
const LABELS = { brave: 'Brave Search', tavily: 'Tavily', exa: 'Exa', searxng: 'SearXNG (self-hosted)' };
const isSecret = (name) => /key|token|secret/i.test(name);

/** #/search: the search form and its governed results. */
export async function searchPage(page, ctx) {
  page.append(pageHeader('Search'), subnav('Search', TABS, 'search'));
  const { data: providers } = await get('/dashboard/api/search-providers', {}, { signal: ctx.signal });
  const configured = providers.filter((p) => p.configured);
  if (!configured.length) {
    page.append(h('section', { class: 'card' }, h('p', {}, 'No search provider is configured yet. ', h('a', { href: '#/search/providers' }, 'Add a provider\'s credentials'), ' to search.')));
    return;
  }
  const query = h('input', { type: 'text', name: 'query', required: true, maxlength: '400', placeholder: 'What are you looking for?' });
  const limit = h('input', { type: 'number', name: 'limit', min: '1', max: '50', value: '10' });
  const provider = select(configured.map((p) => ({ value: p.provider, label: LABELS[p.provider] ?? p.provider })), configured[0].provider, { name: 'provider' });
  const range = select([{ value: '', label: 'Any time' }, 'day', 'week', 'month', 'year'], '', { name: 'time_range' });
  const scrape = h('input', { type: 'checkbox', name: 'scrape', checked: true });
  const run = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Search');
  const form = h('form', { class: 'form', 'aria-label': 'Search the web' },
    errorsAt('query', field('Query', query)),
    h('div', { class: 'form-row' }, errorsAt('limit', field('Results', limit)), errorsAt('provider', field('Provider', provider)), errorsAt('time_range', field('Published', range))),
    h('label', { class: 'check' }, scrape, ' Read the allowed results\' pages (markdown)'),
    h('div', { class: 'form-actions' }, run));
  const results = h('div', { class: 'search-results', 'aria-live': 'polite' });
  const viewer = h('section', { class: 'card', hidden: true, 'aria-label': 'Result content' });
  page.append(h('section', { class: 'card' }, form), results, viewer);

  submitForm(form, run, 'Search failed', async () => {
    const body = { query: query.value.trim(), limit: Number(limit.value) || 10, provider: provider.value, ...(range.value ? { time_range: range.value } : {}), ...(scrape.checked ? { scrape: { formats: ['markdown', 'metadata'] } } : {}) };
    if (!body.query) throw Object.assign(new Error('Enter a query'), { input: query });
    const answer = await post('/v1/search', body, { signal: ctx.signal });
    viewer.hidden = true;
    showResults(results, answer, viewer);
  });
}

function scrapeCell(r, open) {
  if (r.policy.decision === 'denied') return h('span', { class: 'hint' }, 'not fetched');
  if (!r.scrape) return h('span', { class: 'hint' }, '—');
  if (r.scrape.error) return h('span', {}, badge('failed', 'failed'), ' ', h('small', { class: 'hint' }, r.scrape.error.code));
  return h('span', {}, badge(`scraped ${r.scrape.status_code}`, 'succeeded'), ' ', h('button', { type: 'button', class: 'btn btn-small', onclick: () => open(r) }, 'Open content'));
}

/** The page's own headings sit under this section's h2 (the console page keeps its one h1). */
function demoteHeadings(frag) {
  for (const el of frag.querySelectorAll('h1, h2, h3, h4, h5, h6')) {
    const level = Math.min(6, Number(el.tagName[1]) + 2);
    const next = document.createElement(`h${level}`);
    next.append(...el.childNodes);
    el.replaceWith(next);
  }
  return frag;
}

function showResults(host, answer, viewer) {
  const allowed = answer.data.filter((r) => r.policy.decision === 'allowed').length;
  const scraped = answer.data.filter((r) => r.scrape && !r.scrape.error).length;
  const open = (r) => {
    clear(viewer).append(
      h('h2', {}, r.title || r.url),
      h('p', {}, extLink(r.url)),
      h('div', { class: 'markdown' }, demoteHeadings(renderMarkdown(r.scrape.markdown ?? ''))),
    );
    viewer.hidden = false;
    viewer.scrollIntoView({ block: 'start' });
  };
  const t = table([
    { label: '#', render: (r) => String(r.rank), class: 'num' },
    { label: 'Result', render: (r) => h('div', {}, extLink(r.url, r.title || r.url), h('br'), h('small', { class: 'hint mono' }, truncate(r.url, 90)), r.snippet ? h('p', { class: 'hint' }, truncate(r.snippet, 240)) : null) },
    { label: 'Policy', render: (r) => h('span', {}, badge(r.policy.decision, r.policy.decision === 'allowed' ? 'succeeded' : 'blocked'), h('br'), h('small', { class: 'hint' }, r.policy.reason)) },
    { label: 'Page', render: (r) => scrapeCell(r, open) },
  ], { caption: 'Search results', empty: 'The provider found nothing.' });
  t.add(answer.data);
  clear(host).append(
    h('p', { class: 'lead' }, `${answer.data.length} results from ${LABELS[answer.provider] ?? answer.provider}: ${allowed} allowed, ${answer.data.length - allowed} denied, ${scraped} scraped. Used ${answer.usage.searches} search and ${answer.usage.pages} pages.`),
    t.el);
}

/** #/search/providers: one card per provider, with save and save-and-test. */
export async function searchProvidersPage(page, ctx) {
  page.append(pageHeader('Search'), subnav('Search', TABS, 'providers'));
  page.append(h('p', { class: 'lead' }, 'Searches use the provider\'s official API with your own credentials. Values are stored encrypted and never shown again; enter new values to replace them.'));
  const host = h('div', { class: 'sources' });
  page.append(host);
  const load = async () => {
    const { data } = await get('/dashboard/api/search-providers', {}, { signal: ctx.signal });
    clear(host).append(...data.map((p) => providerCard(p, load)));
  };
  await busy(null, load, 'Search providers');
}

function providerCard(p, reload) {
  const inputs = p.credential_fields.map((f) => ({
    f,
    input: h('input', { type: isSecret(f.name) ? 'password' : 'text', id: nextId(`sp-${p.provider}`), name: f.name, autocomplete: 'off', spellcheck: 'false', class: 'mono', placeholder: p.fields.includes(f.name) ? 'stored (enter a new value to replace)' : f.required ? 'required' : 'optional' }),
  }));
  const save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save and test');
  const test = h('button', { type: 'button', class: 'btn', hidden: !p.configured }, 'Test');
  const remove = h('button', { type: 'button', class: 'btn btn-danger', hidden: !p.configured }, 'Remove');
  const outcome = h('p', { class: 'hint', role: 'status' });
  const form = h('form', { class: 'form', 'aria-label': `${LABELS[p.provider]} credentials` },
    inputs.map(({ f, input }) => errorsAt(f.name, field(`${f.name}${f.required ? '' : ' (optional)'}`, input, f.description))),
    h('div', { class: 'form-actions' }, save, test, remove));
  const report = (r) => {
    outcome.textContent = r.ok ? `Test search succeeded (${r.results} result${r.results === 1 ? '' : 's'}).` : `Test failed: ${r.error.message}`;
  };
  submitForm(form, save, 'Not saved', async () => {
    const body = Object.fromEntries(inputs.filter(({ input }) => input.value.trim() !== '').map(({ f, input }) => [f.name, input.value.trim()]));
    if (!Object.keys(body).length) throw Object.assign(new Error('Enter the credentials'), { input: inputs[0]?.input });
    await put(`/dashboard/api/search-providers/${seg(p.provider)}`, body);
    for (const { input } of inputs) input.value = '';
    const r = await post(`/dashboard/api/search-providers/${seg(p.provider)}/test`);
    showNotice(`${LABELS[p.provider]} credentials saved`);
    await reload();
    document.getElementById(`provider-${p.provider}`)?.querySelector('[role=status]')?.replaceChildren(r.ok ? `Test search succeeded (${r.results} result${r.results === 1 ? '' : 's'}).` : `Test failed: ${r.error.message}`);
  });
  test.addEventListener('click', () => busy(test, async () => report(await post(`/dashboard/api/search-providers/${seg(p.provider)}/test`)), `Test ${p.provider}`));
  remove.addEventListener('click', () => {
    if (!confirm(`Remove the stored ${LABELS[p.provider]} credentials?`)) return;
    busy(remove, async () => {
      await del(`/dashboard/api/search-providers/${seg(p.provider)}`);
      showNotice(`${LABELS[p.provider]} credentials removed`);
      await reload();
    }, `Remove ${p.provider}`);
  });
  const id = nextId('sp');
  return h('section', { class: 'card source', id: `provider-${p.provider}`, 'aria-labelledby': id },
    h('div', { class: 'source-head' }, h('h2', { id }, LABELS[p.provider] ?? p.provider), p.configured ? badge('configured', 'succeeded') : badge('not configured', 'cancelled')),
    h('details', { class: 'sub' }, h('summary', {}, 'Where to get access'), h('p', { class: 'hint' }, consoleText(p.access))),
    form, outcome);
}
