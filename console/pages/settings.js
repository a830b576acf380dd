// Settings: API keys, bucket sync + retention, source credentials, target policy, verified domains (domains.js), audit log.
import { h, clear, field, checkboxGroup, select, table, dl, badge, time, truncate, nextId } from '../lib/dom.js';
import { auth, del, get, post, put, seg } from '../lib/api.js';
import { busy, consoleText, pageHeader, pager, secretBox, section, showError, showNotice, subnav } from '../lib/ui.js';
import { sourceLabel } from './queries.js';
import { errorsAt, submitForm } from '../lib/form-errors.js';
import { KEY_STATES, keyState, rotateDialog, scopeText } from '../lib/keys.js';
import { whenWords } from '../lib/words.js';

const TABS = [
  ['keys', 'API Keys'],
  ['storage', 'Storage'],
  ['sources', 'Sources'],
  ['policy', 'Target policy'],
  ['domains', 'Domains'],
  ['secrets', 'Secrets'],
  ['profiles', 'Browser profiles'],
  ['audit', 'Audit'],
];

export function settingsShell(page, active, title) {
  const nav = subnav('Settings', TABS.map(([id, label]) => [`#/settings/${id}`, label, id]), active);
  const body = h('div', { class: 'settings-body' });
  page.append(pageHeader(`Settings · ${title}`), nav, body);
  return body;
}

// ---- API Keys ------------------------------------------------------------------------------

const SCOPES = [
  'scrapers:read', 'runs:read', 'runs:write', 'scrape:write', 'runbooks:read', 'runbooks:write', 'captcha:read', 'captcha:write',
  'queries:read', 'queries:write', 'jobs:read', 'jobs:write', 'storage:read', 'storage:write', 'webhooks:read', 'webhooks:write', 'search:run', 'secrets:use', 'admin',
];

export async function keysPage(page, ctx) {
  const body = settingsShell(page, 'keys', 'API Keys');
  const mine = auth.get()?.key_id;
  const plaintextHost = h('div', { id: 'key-plaintext' });

  const name = h('input', { type: 'text', id: 'key-name', name: 'name', maxlength: '100', required: true, placeholder: 'CI pipeline' });
  const all = h('input', { type: 'checkbox', id: 'key-scope-all', value: '*' });
  const scopes = checkboxGroup('Scopes', SCOPES.map((s) => ({ value: s, label: scopeText(s) })), { name: 'key-scopes', hint: 'What the key may do. Grant only what it needs: admin covers keys, settings and the console API.' });
  all.addEventListener('change', () => {
    for (const b of scopes.boxes) b.input.disabled = all.checked;
  });
  const expiry = h('input', { type: 'number', id: 'key-expiry', name: 'expires_in_days', min: '1', max: '3650', step: '1', placeholder: 'never' });
  const create = h('button', { type: 'submit', class: 'btn btn-primary', id: 'key-create' }, 'Create key');
  const form = h('form', { class: 'form', 'aria-label': 'Create an API key' },
    errorsAt('name', field('Name', name)),
    h('div', { class: 'field' }, h('label', { class: 'check', for: all.id }, all, ' All scopes: everything, now and scopes added later (*)')),
    errorsAt('scopes', scopes.el),
    errorsAt('expires_in_days', field('Expires after (days)', expiry, 'Leave empty for a key that does not expire.')),
    h('div', { class: 'form-actions' }, create));
  submitForm(form, create, 'Not created', async () => {
    const chosen = all.checked ? ['*'] : scopes.values();
    if (!chosen.length) throw Object.assign(new Error('Scopes: pick at least one scope'), { input: scopes.boxes[0]?.input });
    const k = await post('/dashboard/api/keys', { name: name.value.trim(), scopes: chosen, ...(expiry.value ? { expires_in_days: Number(expiry.value) } : {}) });
    clear(plaintextHost).append(secretBox(`New API key "${k.name}"`, k.api_key));
    form.reset();
    for (const b of scopes.boxes) b.input.disabled = false;
    showNotice(`Key ${k.name} created`);
    await p.first();
  });

  const t = table(
    [
      { label: 'Name', render: (k) => [k.name, k.key_id === mine ? h('small', { class: 'hint' }, ' (this console session)') : null, k.rotated_to ? h('small', { class: 'hint' }, ' (replaced by rotation)') : null] },
      { label: 'Key', render: (k) => h('code', {}, `${k.prefix ?? ''}…`) },
      { label: 'Scopes', render: (k) => truncate((k.scopes ?? []).map(scopeText).join('; '), 120) },
      {
        label: 'Status',
        render: (k) => {
          const st = keyState(k);
          return h('span', { class: 'key-state', title: KEY_STATES[st][1] }, badge(st, KEY_STATES[st][0]), st === 'retiring' ? h('small', { class: 'hint' }, ` until ${whenWords(k.expires_at)}`) : null);
        },
      },
      { label: 'Created', render: (k) => time(k.created_at) },
      { label: 'Expires', render: (k) => (k.expires_at ? time(k.expires_at) : 'never') },
      { label: 'Last used', render: (k) => time(k.last_used_at) },
      {
        label: 'Actions',
        render: (k) => {
          const st = keyState(k);
          if (st === 'revoked' || st === 'expired') return '';
          const rotate = h('button', { type: 'button', class: 'btn btn-small', 'aria-haspopup': 'dialog', hidden: st === 'retiring' }, 'Rotate…');
          rotate.addEventListener('click', () => rotateDialog(k, async (grace) => {
            const r = await post(`/dashboard/api/keys/${seg(k.key_id)}/rotate`, { grace_seconds: grace });
            const ends = r.old_key_expires_at ? whenWords(r.old_key_expires_at) : null;
            clear(plaintextHost).append(secretBox(`Rotated key "${r.name}"`, r.api_key,
              `Copy it now: it is shown only once. ${grace === 0 || !ends ? 'The old key has stopped working.' : `The old key keeps working until ${ends}, then stops.`}`));
            showNotice(`Key ${r.name} rotated`);
            await p.first();
          }));
          const revoke = h('button', { type: 'button', class: 'btn btn-small btn-danger' }, 'Revoke');
          revoke.addEventListener('click', () => {
            const warn = k.key_id === mine ? ' This is the key of this console session: you will be logged out.' : '';
            if (!confirm(`Revoke "${k.name}" now? Calls with it fail at once.${warn}`)) return;
            busy(revoke, async () => {
              await del(`/dashboard/api/keys/${seg(k.key_id)}`);
              showNotice(`Key ${k.name} revoked`);
              await p.first();
            }, 'Revoke key');
          });
          return h('div', { class: 'actions' }, rotate, revoke);
        },
      },
    ],
    { caption: 'API keys', empty: 'No keys.' },
  );
  const p = pager(async () => get('/dashboard/api/keys', {}, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  body.append(section('Create an API key', form, plaintextHost), section('Keys', h('div', { id: 'keys-table' }, t.el), p.el));
  await busy(null, () => p.first(), 'API keys');
}

// ---- Storage: bucket sync and retention (SPEC.md 2.6) -----------------------------------------

export async function storageSettingsPage(page, ctx) {
  const body = settingsShell(page, 'storage', 'Storage');
  const endpoint = h('input', { type: 'url', id: 'sync-endpoint', name: 'endpoint', required: true, placeholder: 'https://s3.eu-west-1.amazonaws.com' });
  const bucket = h('input', { type: 'text', id: 'sync-bucket', name: 'bucket', required: true, placeholder: 'my-results', spellcheck: 'false' });
  const keyId = h('input', { type: 'text', id: 'sync-access-key-id', name: 'access_key_id', required: true, autocomplete: 'off', spellcheck: 'false', class: 'mono' });
  const secret = h('input', { type: 'password', id: 'sync-secret', name: 'secret_access_key', autocomplete: 'new-password', spellcheck: 'false', class: 'mono' });
  const region = h('input', { type: 'text', id: 'sync-region', name: 'region', placeholder: 'us-east-1', spellcheck: 'false' });
  const pathStyle = h('input', { type: 'checkbox', id: 'sync-path-style', name: 'force_path_style' });
  const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'sync-save-test' }, 'Save and test');
  const off = h('button', { type: 'button', class: 'btn btn-danger', id: 'sync-off', hidden: true }, 'Turn sync off');
  const result = h('div', { id: 'sync-result', 'aria-live': 'polite' });
  const statusHost = h('div');
  const secretHint = h('small', { class: 'hint', id: 'sync-secret-hint' }, 'Needs s3:PutObject on the bucket. Stored encrypted; never shown again.');
  secret.setAttribute('aria-describedby', secretHint.id);

  const form = h('form', { class: 'form', 'aria-label': 'Bucket sync' },
    h('p', { class: 'hint' }, 'Each job result is also written to your own S3-compatible bucket as results/<query_id>/<timestamp>.json.'),
    field('Endpoint', endpoint, 'URL of an S3-compatible endpoint (AWS, R2, MinIO, …).'),
    h('div', { class: 'row' }, field('Bucket name', bucket), field('Region', region, 'Optional; us-east-1 when empty.')),
    h('div', { class: 'row' }, field('Access key ID', keyId), h('div', { class: 'field' }, h('label', { for: secret.id }, 'Secret access key'), secret, secretHint)),
    h('div', { class: 'field' }, h('label', { class: 'check', for: pathStyle.id }, pathStyle, ' Path-style addressing (endpoint/bucket/key)')),
    h('div', { class: 'form-actions' }, save, off),
    result);

  const retention = h('input', { type: 'number', id: 'retention-days', name: 'retention_days', min: '1', max: '36500', step: '1', placeholder: 'keep forever' });
  const saveRetention = h('button', { type: 'submit', class: 'btn btn-primary', id: 'retention-save' }, 'Save retention');
  const retentionForm = h('form', { class: 'form', 'aria-label': 'Retention' },
    field('Delete stored results after (days)', retention, 'Leave empty to keep results until you delete them. Raw scrape logs are always deleted after 90 days.'),
    h('div', { class: 'form-actions' }, saveRetention));

  // A stored secret may be kept only for the same endpoint and access key id.
  let stored = null;
  const secretRule = () => {
    const keep = !!stored?.secret_access_key_set && endpoint.value.trim() === stored.endpoint && keyId.value.trim() === stored.access_key_id;
    secret.required = !keep;
    secret.placeholder = keep ? 'stored (leave empty to keep it)' : stored?.secret_access_key_set ? 'required when the endpoint or key id changes' : '';
  };
  endpoint.addEventListener('input', secretRule);
  keyId.addEventListener('input', secretRule);

  const outcome = (label, o) => (o ? [label, h('span', {}, badge(o.ok ? 'ok' : 'error', o.ok ? 'succeeded' : 'failed'), ' ', time(o.at), o.key ? [' · ', h('code', {}, o.key)] : null, o.error ? ` · ${o.error}` : '')] : [label, 'never']);
  const show = (s) => {
    const sync = s.sync;
    if (sync) {
      endpoint.value = sync.endpoint;
      bucket.value = sync.bucket;
      keyId.value = sync.access_key_id;
      region.value = sync.region ?? '';
      pathStyle.checked = !!sync.force_path_style;
    }
    stored = sync;
    secret.placeholder = sync?.secret_access_key_set ? 'stored (leave empty to keep it)' : '';
    secretRule();
    off.hidden = !sync;
    retention.value = s.retention_days ?? '';
    clear(statusHost).append(dl([
      ['Bucket sync', sync ? `on → ${sync.bucket} at ${sync.endpoint}` : 'off'],
      outcome('Last test', s.last_test),
      outcome('Last sync', s.last_sync),
      ['Retention', s.retention_days ? `${s.retention_days} days` : 'keep until deleted'],
    ]));
  };

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clear(result);
    busy([save, off], async () => {
      const sync = { endpoint: endpoint.value.trim(), bucket: bucket.value.trim(), access_key_id: keyId.value.trim(), force_path_style: pathStyle.checked };
      if (secret.value) sync.secret_access_key = secret.value;
      if (region.value.trim()) sync.region = region.value.trim();
      try {
        show(await put('/dashboard/api/settings/storage', { sync }));
      } catch (err) {
        clear(result).append(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'Not saved: '), err.message ?? String(err)));
        throw err;
      }
      secret.value = '';
      try {
        const t = await post('/dashboard/api/settings/storage/test');
        clear(result).append(h('div', { class: 'ok-box', role: 'status' }, h('strong', {}, 'Saved and tested: '), `wrote ${t.key} to ${t.bucket}.`));
      } catch (err) {
        clear(result).append(h('div', { class: 'error-box', role: 'alert' }, h('strong', {}, 'Saved, but the test failed: '), err.message ?? String(err)));
        showError(err, 'Bucket test');
      }
      show(await get('/dashboard/api/settings/storage'));
    }, 'Save bucket sync');
  });
  off.addEventListener('click', () => {
    if (!confirm('Turn bucket sync off? Stored credentials are deleted.')) return;
    busy([save, off], async () => {
      show(await put('/dashboard/api/settings/storage', { sync: null }));
      clear(result);
      showNotice('Bucket sync turned off');
    }, 'Turn sync off');
  });
  retentionForm.addEventListener('submit', (e) => {
    e.preventDefault();
    busy(saveRetention, async () => {
      show(await put('/dashboard/api/settings/storage', { retention_days: retention.value ? Number(retention.value) : null }));
      showNotice('Retention saved');
    }, 'Save retention');
  });

  body.append(section('Status', statusHost), section('Bucket sync', form), section('Retention', retentionForm));
  await busy(save, async () => show(await get('/dashboard/api/settings/storage', {}, { signal: ctx.signal })), 'Storage settings');
}

// ---- Sources: credentials per source (never shown back) ---------------------------------------

export async function sourcesPage(page, ctx) {
  const body = settingsShell(page, 'sources', 'Sources');
  body.append(h('p', { class: 'lead' }, 'Queries use each source\'s official API with your own credentials. Values are stored encrypted and never shown again; enter new values to replace them.'));
  const host = h('div', { class: 'sources' });
  body.append(host);
  const load = async () => {
    const { data } = await get('/dashboard/api/sources', {}, { signal: ctx.signal });
    clear(host).append(...data.map((s) => sourceCard(s, load)));
  };
  await busy(null, load, 'Sources');
  // #/settings/sources?source=x (from Social or a query's error) brings that card into view.
  const wanted = ctx.query.get('source');
  const card = wanted ? document.getElementById(`source-${wanted}`) : null;
  if (card) {
    card.classList.add('highlight');
    card.scrollIntoView({ block: 'start' });
    card.querySelector('input')?.focus({ preventScroll: true });
  }
}

/** Credential fields that are secrets (masked): tokens, secrets, passwords, API keys. */
export const isSecretField = (name) => /secret|token|password|api_key/i.test(name);

function sourceCard(s, reload) {
  const inputs = (s.credential_fields ?? []).map((f) => ({
    f,
    // Only secrets are masked: ids, user names and versions are typed in the clear (issue 29).
    input: h('input', { type: isSecretField(f.name) ? 'password' : 'text', id: nextId(`src-${s.source}`), name: f.name, autocomplete: 'off', spellcheck: 'false', class: 'mono', placeholder: s.fields?.includes(f.name) ? 'stored (enter a new value to replace)' : f.required ? 'required' : 'optional' }),
  }));
  const save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save');
  const remove = h('button', { type: 'button', class: 'btn btn-danger', hidden: !s.configured }, 'Remove');
  const form = h('form', { class: 'form', 'aria-label': `${sourceLabel(s.source)} credentials` },
    inputs.map(({ f, input }) => errorsAt(f.name, field(`${f.name}${f.required ? '' : ' (optional)'}`, input, f.description))),
    h('div', { class: 'form-actions' }, save, remove));
  submitForm(form, save, 'Not saved', async () => {
    const bodyJson = Object.fromEntries(inputs.filter(({ input }) => input.value.trim() !== '').map(({ f, input }) => [f.name, input.value.trim()]));
    if (!Object.keys(bodyJson).length) throw Object.assign(new Error('Enter at least one credential value'), { input: inputs[0]?.input });
    await put(`/dashboard/api/sources/${seg(s.source)}`, bodyJson);
    for (const { input } of inputs) input.value = '';
    showNotice(`${s.source} credentials saved`);
    await reload();
  });
  remove.addEventListener('click', () => {
    if (!confirm(`Remove the stored ${s.source} credentials?`)) return;
    busy(remove, async () => {
      await del(`/dashboard/api/sources/${seg(s.source)}`);
      showNotice(`${s.source} credentials removed`);
      await reload();
    }, `Remove ${s.source}`);
  });
  const id = nextId('src');
  return h('section', { class: 'card source', id: `source-${s.source}`, 'aria-labelledby': id },
    h('div', { class: 'source-head' },
      h('h2', { id }, sourceLabel(s.source)),
      s.configured ? badge('configured', 'succeeded') : badge('not configured', 'cancelled'),
      s.updated_at ? h('small', { class: 'hint' }, ' updated ', time(s.updated_at)) : null),
    s.configured && s.fields?.length ? h('p', { class: 'hint' }, `Stored fields: ${s.fields.join(', ')}`) : null,
    h('details', { class: 'sub' }, h('summary', {}, 'What access is needed'), h('p', { class: 'hint' }, consoleText(s.access ?? ''))),
    form);
}

// ---- Target policy ------------------------------------------------------------------------

export async function policyPage(page, ctx) {
  const body = settingsShell(page, 'policy', 'Target policy');
  const name = nextId('mode');
  const open = h('input', { type: 'radio', name, value: 'open', id: nextId('mode') });
  const allow = h('input', { type: 'radio', name, value: 'allowlist', id: nextId('mode') });
  const domains = h('textarea', { id: 'policy-domains', rows: '8', class: 'mono', spellcheck: 'false', placeholder: 'example.com\nexample.org' });
  const save = h('button', { type: 'submit', class: 'btn btn-primary' }, 'Save policy');
  const form = h('form', { class: 'form', 'aria-label': 'Target policy' },
    errorsAt('mode', h('fieldset', { class: 'field' }, h('legend', {}, 'Mode'),
      h('label', { class: 'check', for: open.id }, open, ' Open: any public site (private and loopback addresses are always refused)'),
      h('label', { class: 'check', for: allow.id }, allow, ' Allowlist: only the domains below (and their subdomains)'))),
    errorsAt('domains', field('Domains (one per line)', domains)),
    h('div', { class: 'form-actions' }, save));
  const show = (p) => {
    open.checked = p.mode === 'open';
    allow.checked = p.mode === 'allowlist';
    domains.value = (p.domains ?? []).join('\n');
  };
  submitForm(form, save, 'Not saved', async () => {
    const list = domains.value.split(/[\s,]+/).map((d) => d.trim()).filter(Boolean);
    show(await put('/dashboard/api/settings/target-policy', { mode: allow.checked ? 'allowlist' : 'open', domains: list }));
    showNotice('Target policy saved');
  });
  body.append(section('Which sites runs may collect from', form));
  await busy(save, async () => show(await get('/dashboard/api/settings/target-policy', {}, { signal: ctx.signal })), 'Target policy');
}

// ---- Audit log ----------------------------------------------------------------------------

export async function auditPage(page, ctx) {
  const body = settingsShell(page, 'audit', 'Audit');
  const { auditBody } = await import('./audit.js');
  await auditBody(body, ctx);
}

// ---- Secrets: values for runbook fill steps (names only are ever shown) -------------------

const SECRET_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

export async function secretsPage(page, ctx) {
  const body = settingsShell(page, 'secrets', 'Secrets');
  body.append(h('div', { class: 'callout', role: 'note' },
    h('p', {}, 'Secrets hold values such as a site password for runbook ', h('code', {}, 'fill'), ' steps, which reference them by name: ',
      h('code', {}, '{ "action": "fill", "selector": "#password", "value": { "secret": "site_password" } }'), '.'),
    h('p', {}, 'A secret is filled only on the domains you bind it to here (and their subdomains), which must also be on your ', h('a', { href: '#/settings/policy' }, 'target policy'), ' allowlist (whatever the policy mode). Its value never appears in step logs, results or this console, and screenshot/extract steps are refused on the page it was typed into. Runbooks that use secrets need a key with the secrets:use scope. Values are stored encrypted and cannot be read back: set a new value to replace one.')));

  const name = h('input', { type: 'text', id: 'secret-name', name: 'name', required: true, maxlength: '64', spellcheck: 'false', autocomplete: 'off', class: 'mono', placeholder: 'site_password' });
  const value = h('input', { type: 'password', id: 'secret-value', name: 'value', required: true, maxlength: '8192', autocomplete: 'new-password', spellcheck: 'false', class: 'mono' });
  const domains = h('input', { type: 'text', id: 'secret-domains', name: 'domains', required: true, maxlength: '2000', spellcheck: 'false', autocomplete: 'off', class: 'mono', placeholder: 'shop.example.com' });
  const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'secret-save' }, 'Save secret');
  const form = h('form', { class: 'form', 'aria-label': 'Set a secret' },
    h('div', { class: 'row' },
      errorsAt('name', field('Name', name, '1-64 letters, digits, _ . - starting with a letter. An existing name is replaced.')),
      errorsAt('value', field('Value', value, 'Write-only: it is never shown again.')),
      errorsAt('domains', field('Domains', domains, 'Hosts it may be filled on, comma-separated (subdomains included).'))),
    h('div', { class: 'form-actions' }, save));
  submitForm(form, save, 'Not saved', async () => {
    const n = name.value.trim();
    if (!SECRET_NAME.test(n)) throw Object.assign(new Error('Name: a secret name is 1-64 letters, digits, _ . - and starts with a letter'), { input: name });
    const exists = t.tbody.querySelector(`tr[data-name="${CSS.escape(n)}"]`);
    await put(`/dashboard/api/secrets/${seg(n)}`, { value: value.value, domains: domains.value.split(',').map((d) => d.trim()).filter(Boolean) });
    value.value = '';
    name.value = '';
    domains.value = '';
    showNotice(`Secret ${n} ${exists ? 'replaced' : 'saved'}`);
    await load();
  });

  const t = table(
    [
      { label: 'Name', render: (s) => h('code', {}, s.name) },
      { label: 'Domains', render: (s) => (s.domains?.length ? s.domains.join(', ') : 'none: set the value again with domains') },
      { label: 'Updated', render: (s) => time(s.updated_at) },
      { label: 'Reference', render: (s) => h('code', { class: 'small' }, JSON.stringify({ secret: s.name })) },
      {
        label: 'Actions',
        render: (s) => {
          const b = h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Replace the value of ${s.name}` }, 'Replace value');
          b.addEventListener('click', () => {
            name.value = s.name;
            domains.value = (s.domains ?? []).join(', ');
            value.value = '';
            value.focus();
          });
          return b;
        },
      },
    ],
    { caption: 'Secrets', empty: 'No secrets yet.' },
  );
  const load = async () => {
    const { data } = await get('/dashboard/api/secrets', {}, { signal: ctx.signal });
    t.reset();
    t.add((data ?? []).slice().sort((a, b) => a.name.localeCompare(b.name)));
    for (const tr of t.tbody.querySelectorAll('tr')) {
      const code = tr.querySelector('td code');
      if (code) tr.dataset.name = code.textContent;
    }
  };
  body.append(section('Set a secret', form), section('Secrets', h('div', { id: 'secrets-table' }, t.el)));
  await busy(save, load, 'Secrets');
}

// ---- Browser profiles (console "antidetect"): rendering settings only --------------------------

const PROFILE_DEFAULTS = { name: '', viewport: { width: 1280, height: 900 }, device_scale_factor: 1, is_mobile: false, locale: 'en-US', timezone: 'UTC', color_scheme: 'light' };
const TIME_ZONES = ['UTC', 'Europe/London', 'Europe/Berlin', 'Europe/Paris', 'America/New_York', 'America/Chicago', 'America/Los_Angeles', 'America/Sao_Paulo', 'Asia/Tokyo', 'Asia/Singapore', 'Asia/Kolkata', 'Australia/Sydney'];

export async function profilesPage(page, ctx) {
  const body = settingsShell(page, 'profiles', 'Browser profiles');
  body.append(h('div', { class: 'callout', role: 'note' },
    h('p', {}, 'A browser profile changes how pages render in the browser engine: viewport, device scale, touch/mobile, locale (Accept-Language), time zone and colour scheme, so you see a page as a given audience does. Pick one when you start a run.'),
    h('p', {}, h('strong', {}, 'Profiles change rendering only. '), 'The User-Agent always identifies Gleaner; profiles never spoof fingerprints, rotate identities or get around challenges.')));

  let editing = null; // profile_id being edited, or null for a new one
  const name = h('input', { type: 'text', id: 'profile-name', name: 'name', required: true, maxlength: '100', placeholder: 'Berlin phone' });
  const width = h('input', { type: 'number', id: 'profile-width', name: 'width', min: '320', max: '3840', step: '1', required: true });
  const height = h('input', { type: 'number', id: 'profile-height', name: 'height', min: '240', max: '2160', step: '1', required: true });
  const scale = h('input', { type: 'number', id: 'profile-scale', name: 'device_scale_factor', min: '1', max: '3', step: '0.25', required: true });
  const mobile = h('input', { type: 'checkbox', id: 'profile-mobile', name: 'is_mobile' });
  const locale = h('input', { type: 'text', id: 'profile-locale', name: 'locale', required: true, maxlength: '35', spellcheck: 'false', placeholder: 'en-US', pattern: '[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*' });
  const tzList = h('datalist', { id: 'profile-tz-list' }, TIME_ZONES.map((z) => h('option', { value: z })));
  const tz = h('input', { type: 'text', id: 'profile-timezone', name: 'timezone', required: true, maxlength: '64', spellcheck: 'false', list: tzList.id, placeholder: 'Europe/Berlin' });
  const tzHint = h('small', { class: 'hint', id: 'profile-timezone-hint' }, 'An IANA time zone such as Europe/Berlin (suggestions as you type).');
  tz.setAttribute('aria-describedby', tzHint.id);
  const scheme = select([{ value: 'light', label: 'Light' }, { value: 'dark', label: 'Dark' }], 'light', { id: 'profile-scheme', name: 'color_scheme' });
  const formTitle = h('h2', { id: 'profile-form-title' }, 'New browser profile');
  const save = h('button', { type: 'submit', class: 'btn btn-primary', id: 'profile-save' }, 'Create profile');
  const cancel = h('button', { type: 'button', class: 'btn', id: 'profile-cancel', hidden: true }, 'Cancel editing');

  const fill = (p) => {
    name.value = p.name;
    width.value = String(p.viewport?.width ?? 1280);
    height.value = String(p.viewport?.height ?? 900);
    scale.value = String(p.device_scale_factor ?? 1);
    mobile.checked = !!p.is_mobile;
    locale.value = p.locale ?? 'en-US';
    tz.value = p.timezone ?? 'UTC';
    scheme.value = p.color_scheme ?? 'light';
  };
  const startEdit = (p) => {
    editing = p ? p.profile_id : null;
    fill(p ?? PROFILE_DEFAULTS);
    formTitle.textContent = p ? `Edit ${p.name}` : 'New browser profile';
    save.textContent = p ? 'Save changes' : 'Create profile';
    cancel.hidden = !p;
    if (p) {
      formCard.scrollIntoView({ block: 'start' });
      name.focus();
    }
  };
  const form = h('form', { class: 'form', 'aria-labelledby': formTitle.id },
    field('Name', name),
    h('div', { class: 'row' },
      field('Viewport width (px)', width, '320 to 3840'),
      field('Viewport height (px)', height, '240 to 2160'),
      field('Device scale factor', scale, '1 to 3 (2 = a high-density phone screen)')),
    h('div', { class: 'field' }, h('label', { class: 'check', for: mobile.id }, mobile, ' Mobile (touch events, mobile viewport meta)')),
    h('div', { class: 'row' },
      field('Locale', locale, 'A BCP 47 tag such as en-US or de-DE; also sent as Accept-Language.'),
      h('div', { class: 'field' }, h('label', { for: tz.id }, 'Time zone'), tz, tzList, tzHint),
      field('Colour scheme', scheme, 'prefers-color-scheme as the page sees it.')),
    h('div', { class: 'form-actions' }, save, cancel));
  const formCard = h('section', { class: 'card', 'aria-labelledby': formTitle.id }, formTitle, form);
  cancel.addEventListener('click', () => startEdit(null));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const json = {
      name: name.value.trim(),
      viewport: { width: Number(width.value), height: Number(height.value) },
      device_scale_factor: Number(scale.value),
      is_mobile: mobile.checked,
      locale: locale.value.trim(),
      timezone: tz.value.trim(),
      color_scheme: scheme.value,
    };
    busy([save, cancel], async () => {
      const p = editing
        ? await put(`/dashboard/api/antidetect/profiles/${seg(editing)}`, json)
        : await post('/dashboard/api/antidetect/profiles', json);
      showNotice(`Browser profile ${p.name} ${editing ? 'saved' : 'created'}`);
      startEdit(null);
      await pg.first();
    }, editing ? 'Save browser profile' : 'Create browser profile');
  });

  const t = table(
    [
      { label: 'Name', render: (p) => h('span', {}, p.name, h('br'), h('small', { class: 'mono hint' }, p.profile_id)) },
      { label: 'Viewport', render: (p) => `${p.viewport?.width}×${p.viewport?.height} @${p.device_scale_factor}x` },
      { label: 'Mobile', render: (p) => (p.is_mobile ? 'yes' : 'no') },
      { label: 'Locale', render: (p) => p.locale },
      { label: 'Time zone', render: (p) => p.timezone },
      { label: 'Colour scheme', render: (p) => p.color_scheme },
      { label: 'Updated', render: (p) => time(p.updated_at) },
      {
        label: 'Actions',
        render: (p) => {
          const edit = h('button', { type: 'button', class: 'btn btn-small', 'aria-label': `Edit ${p.name}` }, 'Edit');
          edit.addEventListener('click', () => startEdit(p));
          const rm = h('button', { type: 'button', class: 'btn btn-small btn-danger', 'aria-label': `Delete ${p.name}` }, 'Delete');
          rm.addEventListener('click', () => {
            if (!confirm(`Delete the browser profile "${p.name}"? Runs that name it are refused from now on.`)) return;
            busy(rm, async () => {
              await del(`/dashboard/api/antidetect/profiles/${seg(p.profile_id)}`);
              showNotice(`Browser profile ${p.name} deleted`);
              if (editing === p.profile_id) startEdit(null);
              await pg.first();
            }, 'Delete browser profile');
          });
          return h('div', { class: 'actions' }, edit, rm);
        },
      },
    ],
    { caption: 'Browser profiles', empty: 'No browser profiles yet. Runs use the default rendering (1280×900, en-US, UTC, light).' },
  );
  const pg = pager((cursor) => get('/dashboard/api/antidetect/profiles', { cursor, limit: 50 }, { signal: ctx.signal }), (rows, reset) => {
    if (reset) t.reset();
    t.add(rows);
  });
  startEdit(null);
  body.append(formCard, section('Profiles', h('div', { id: 'profiles-table' }, t.el), pg.el));
  await busy(null, () => pg.first(), 'Browser profiles');
  // #/settings/profiles?id=prf_… (from a run's detail) opens that profile for editing.
  const wanted = ctx.query.get('id');
  if (wanted && !ctx.signal.aborted) {
    await busy(null, async () => startEdit(await get(`/dashboard/api/antidetect/profiles/${seg(wanted)}`, {}, { signal: ctx.signal })), 'Browser profile');
  }
}
