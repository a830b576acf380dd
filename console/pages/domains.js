// Settings · Domains: prove control of a host (token file or DNS TXT), then raise this tenant's
// crawl limits on it (API.md "Verified domains and large crawls").
import { whenWords } from '../lib/words.js';
import { h, clear, field, badge, time, dl } from '../lib/dom.js';
import { del, get, post, put, seg } from '../lib/api.js';
import { busy, copyButton, section, showNotice } from '../lib/ui.js';
import { settingsShell } from './settings.js';

/** A read-only value with a copy button (token, verify URL, TXT record). */
function copyable(label, value, cls) {
  const input = h('input', { type: 'text', readOnly: true, value, class: ['mono', cls], 'aria-label': label, spellcheck: 'false' });
  input.addEventListener('focus', () => input.select());
  return h('div', { class: 'secret-row' }, input, copyButton(() => value, input));
}

function domainCard(d, reload) {
  const verified = d.status === 'verified';
  const result = h('p', { class: 'domain-result', role: 'status', 'aria-live': 'polite' },
    d.error ? h('span', { class: 'domain-error' }, `Last check failed: ${d.error}`) : verified ? `Verified ${d.verified_at ? whenWords(d.verified_at) : ''}`.trim() : 'Not verified yet.');
  const verify = h('button', { type: 'button', class: 'btn btn-primary domain-verify' }, verified ? 'Check again' : 'Verify');
  verify.addEventListener('click', () => busy(verify, async () => {
    const r = await post(`/dashboard/api/domains/${seg(d.host)}/verify`);
    showNotice(r.status === 'verified' ? `${d.host} is verified` : `${d.host} is not verified yet`);
    await reload();
  }, `Verify ${d.host}`));

  const concurrency = h('input', { type: 'number', name: 'concurrency', class: 'domain-concurrency', min: '1', max: '64', step: '1', required: true, value: String(d.limits?.concurrency ?? 8) });
  const delay = h('input', { type: 'number', name: 'delay_ms', class: 'domain-delay', min: '0', max: '60000', step: '1', required: true, value: String(d.limits?.delay_ms ?? 0) });
  const save = h('button', { type: 'submit', class: 'btn domain-save-limits' }, 'Save limits');
  const fs = h('fieldset', { class: 'domain-limits-fields', disabled: !verified },
    h('legend', {}, 'Crawl limits on this host (this tenant\'s runs)'),
    h('div', { class: 'row' },
      field('Requests in flight', concurrency, '1 to 64'),
      field('Delay between requests (ms)', delay, '0 to 60000; replaces robots.txt crawl-delay')),
    h('div', { class: 'form-actions' }, save));
  const limits = h('form', { class: 'form domain-limits', 'aria-label': `Limits for ${d.host}` }, fs,
    verified ? null : h('p', { class: 'hint' }, 'Verify the host first: until then runs use the polite defaults and robots.txt crawl-delay.'));
  limits.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(save, async () => {
      await put(`/dashboard/api/domains/${seg(d.host)}/limits`, { concurrency: Number(concurrency.value), delay_ms: Number(delay.value) });
      showNotice(`Limits for ${d.host} saved`);
      await reload();
    }, `Limits for ${d.host}`);
  });

  const rm = h('button', { type: 'button', class: 'btn btn-small btn-danger domain-delete', 'aria-label': `Delete ${d.host}` }, 'Delete');
  rm.addEventListener('click', () => {
    if (!confirm(`Remove ${d.host}? Its runs go back to the polite defaults.`)) return;
    busy(rm, async () => {
      await del(`/dashboard/api/domains/${seg(d.host)}`);
      showNotice(`${d.host} removed`);
      await reload();
    }, `Delete ${d.host}`);
  });

  const id = `domain-${d.host.replace(/[^a-z0-9]/g, '-')}`;
  return h('section', { class: 'card domain', 'data-host': d.host, 'data-status': d.status, 'aria-labelledby': id },
    h('h2', { id }, d.host, ' ', badge(d.status, verified ? 'succeeded' : 'queued')),
    h('p', {}, 'Serve the token as the whole body of the verification URL, ', h('em', {}, 'or'), ' publish the DNS TXT record (checked on AWS), then press Verify.'),
    field('Verification URL', copyable(`Verification URL for ${d.host}`, d.verify_url, 'domain-verify-url')),
    field('File body (the token)', copyable(`Token for ${d.host}`, d.token, 'domain-token')),
    field('DNS TXT record', copyable(`TXT record for ${d.host}`, d.txt_record, 'domain-txt')),
    dl([['Added', time(d.created_at)], ['Last checked', time(d.checked_at)], ['Verified', time(d.verified_at)],
      ['Limits', d.limits ? `${d.limits.concurrency} in flight, ${d.limits.delay_ms} ms apart` : 'polite defaults']]),
    result,
    h('div', { class: 'actions' }, verify, rm),
    limits);
}

export async function domainsPage(page, ctx) {
  const body = settingsShell(page, 'domains', 'Domains');
  body.append(h('div', { class: 'callout', role: 'note' },
    h('p', {}, 'Crawl a site you control faster than the polite defaults: add its host, prove control with a token, then raise the requests in flight (up to 64) and lower the delay (down to 0) for your own runs on it. robots.txt allow/disallow rules still apply; other tenants keep the defaults.')));

  const host = h('input', { type: 'text', id: 'domain-host', name: 'host', required: true, maxlength: '260', spellcheck: 'false', class: 'mono', placeholder: 'docs.example.com' });
  const add = h('button', { type: 'submit', class: 'btn btn-primary', id: 'domain-add' }, 'Add domain');
  const form = h('form', { class: 'form', 'aria-label': 'Add a domain' },
    field('Host', host, 'As a URL shows it: docs.example.com, or host:port for a non-default port.'),
    h('div', { class: 'form-actions' }, add));
  const list = h('div', { id: 'domains-list' });
  const reload = async () => {
    const r = await get('/dashboard/api/domains', {}, { signal: ctx.signal });
    clear(list);
    if (!r.data.length) list.append(h('p', { class: 'hint' }, 'No domains yet.'));
    for (const d of r.data) list.append(domainCard(d, reload));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(add, async () => {
      const d = await post('/dashboard/api/domains', { host: host.value.trim() });
      showNotice(`${d.host} added: serve the token, then press Verify`);
      form.reset();
      await reload();
    }, 'Add domain');
  });
  body.append(section('Add a domain', form), list);
  await busy(null, reload, 'Domains');
}
