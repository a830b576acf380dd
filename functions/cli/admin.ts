import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { loadConfig } from '../config.js';
import { DynamoTable } from '../adapters/aws/dynamo-table.js';
import { localDynamoClient } from '../local/embedded-stores.js';
import { billingStatuses, createTenant, listTenants, requireTenant, setBilling, setLimits, setTargetPolicy, type BillingStatus } from '../core/tenancy/tenants.js';
import { createApiKey, listApiKeys, publicKey, revokeApiKey, rotateApiKey, scopeSchema, type Scope } from '../core/tenancy/api-keys.js';
import { createUser } from '../core/tenancy/users.js';
import { parseDuration } from './duration.js';
import type { Table } from '../ports/table.js';
import { SDK_CLIENT_OPTIONS } from '../adapters/aws/sdk-options.js';

const USAGE = `Usage: npm run admin -- <command> [--json]

  tenants create --name <name>
  tenants list
  tenants set-billing <tenant_id> active|past_due|suspended
  tenants set-limits <tenant_id> --rate <requests>/<seconds> [--monthly-pages N] [--monthly-results N] [--monthly-model-tokens N] [--monthly-searches N]
                                   [--max-jobs N] [--min-job-interval 5m]
  tenants set-policy <tenant_id> --mode open|allowlist [--domains example.com,example.org]
  keys create --tenant <tenant_id> --scopes runs:read,runs:write [--expires-in 30d] [--name <name>]
  keys list --tenant <tenant_id>
  keys revoke <key_id>
  keys rotate <key_id> [--grace 24h]
  users create --tenant <tenant_id> --email <email> --password-stdin

Local mode talks to the running server's store (dynalite on PORT+1, default 8788);
set GLEANER_DYNAMODB_ENDPOINT to point elsewhere, or GLEANER_MODE=aws with GLEANER_TABLE for AWS.`;

class UsageError extends Error {}

function tableFor(): Table {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const cfg = loadConfig();
  if (cfg.mode === 'aws') return new DynamoTable(cfg.table, new DynamoDBClient({ ...SDK_CLIENT_OPTIONS }));
  return new DynamoTable(cfg.table, localDynamoClient(cfg.dynamoEndpoint ?? `http://127.0.0.1:${cfg.port + 1}`));
}

const need = (v: string | undefined, what: string) => {
  if (!v) throw new UsageError(`Missing ${what}`);
  return v;
};

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

export async function run(argv: string[], table: Table = tableFor(), now = new Date()): Promise<unknown> {
  const { values: o, positionals: p } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      json: { type: 'boolean' }, name: { type: 'string' }, tenant: { type: 'string' }, scopes: { type: 'string' },
      'expires-in': { type: 'string' }, rate: { type: 'string' }, 'monthly-pages': { type: 'string' }, 'monthly-results': { type: 'string' }, 'monthly-model-tokens': { type: 'string' }, 'monthly-searches': { type: 'string' },
      'max-jobs': { type: 'string' }, 'min-job-interval': { type: 'string' },
      mode: { type: 'string' }, domains: { type: 'string' }, grace: { type: 'string' }, email: { type: 'string' }, 'password-stdin': { type: 'boolean' },
    },
  });
  const [group, cmd, arg] = p;
  const positiveInt = (v: string | undefined, what: string) => {
    if (v === undefined) return null;
    const n = Number(v);
    if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${what} must be a positive integer`);
    return n;
  };
  switch (`${group} ${cmd}`) {
    case 'tenants create': {
      const t = await createTenant(table, need(o.name, '--name'), now);
      const k = await createApiKey(table, { tenantId: t.tenant_id, scopes: ['*'], name: 'admin key' }, now);
      return { tenant_id: t.tenant_id, api_key: k.api_key };
    }
    case 'tenants list':
      return await listTenants(table);
    case 'tenants set-billing': {
      const s = need(p[3], 'billing status') as BillingStatus;
      if (!billingStatuses.includes(s)) throw new UsageError(`Billing status must be one of ${billingStatuses.join(', ')}`);
      return await setBilling(table, need(arg, 'tenant_id'), s);
    }
    case 'tenants set-limits': {
      const t = await requireTenant(table, need(arg, 'tenant_id'));
      const limits = { ...t.limits };
      if (o.rate) {
        const m = /^(\d+)\/(\d+)(s)?$/.exec(o.rate);
        if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new UsageError('--rate must look like <requests>/<seconds>, e.g. 5/60');
        limits.rate_requests = Number(m[1]);
        limits.rate_seconds = Number(m[2]);
      }
      if (o['monthly-pages'] !== undefined) limits.monthly_pages = positiveInt(o['monthly-pages'], '--monthly-pages');
      if (o['monthly-results'] !== undefined) limits.monthly_results = positiveInt(o['monthly-results'], '--monthly-results');
      if (o['monthly-model-tokens'] !== undefined) limits.monthly_model_tokens = positiveInt(o['monthly-model-tokens'], '--monthly-model-tokens');
      if (o['monthly-searches'] !== undefined) limits.monthly_searches = positiveInt(o['monthly-searches'], '--monthly-searches');
      if (o['max-jobs'] !== undefined) limits.max_jobs = positiveInt(o['max-jobs'], '--max-jobs')!;
      if (o['min-job-interval'] !== undefined) {
        const ms = parseDuration(o['min-job-interval']);
        if (ms < 60_000) throw new UsageError('--min-job-interval must be at least 1m (a cron schedule fires at most once a minute)');
        limits.min_job_interval_seconds = Math.round(ms / 1000);
      }
      return await setLimits(table, t.tenant_id, limits);
    }
    case 'tenants set-policy': {
      const mode = need(o.mode, '--mode');
      if (mode !== 'open' && mode !== 'allowlist') throw new UsageError('--mode must be open or allowlist');
      const domains = (o.domains ?? '').split(',').map((d) => d.trim().toLowerCase()).filter(Boolean);
      return await setTargetPolicy(table, need(arg, 'tenant_id'), { mode, domains });
    }
    case 'keys create': {
      const tenantId = need(o.tenant, '--tenant');
      await requireTenant(table, tenantId);
      const scopes = need(o.scopes, '--scopes').split(',').map((s) => s.trim()).filter(Boolean);
      const bad = scopes.filter((s) => !scopeSchema.safeParse(s).success);
      if (bad.length || !scopes.length) throw new UsageError(`Unknown scope(s): ${bad.join(', ') || '(none given)'}; valid: ${scopeSchema.options.join(', ')}`);
      const expiresAt = o['expires-in'] ? new Date(now.getTime() + parseDuration(o['expires-in'])) : null;
      const k = await createApiKey(table, { tenantId, scopes: scopes as Scope[], name: o.name, expiresAt }, now);
      return { key_id: k.key.key_id, api_key: k.api_key, scopes: k.key.scopes, expires_at: k.key.expires_at_iso };
    }
    case 'keys list':
      return (await listApiKeys(table, need(o.tenant, '--tenant'))).map(publicKey);
    case 'keys revoke':
      return publicKey(await revokeApiKey(table, need(arg, 'key_id'), now));
    case 'keys rotate': {
      const r = await rotateApiKey(table, need(arg, 'key_id'), now, parseDuration(o.grace ?? '24h') / 1000);
      return { key_id: r.key.key_id, api_key: r.api_key, old_key_expires_at: r.old_key_expires_at };
    }
    case 'users create': {
      if (!o['password-stdin']) throw new UsageError('Pass the password on standard input with --password-stdin');
      const tenantId = need(o.tenant, '--tenant');
      await requireTenant(table, tenantId);
      return await createUser(table, tenantId, need(o.email, '--email'), await readStdin(), now);
    }
    default:
      throw new UsageError(group ? `Unknown command: ${[group, cmd].filter(Boolean).join(' ')}` : 'No command given');
  }
}

function print(result: unknown, json: boolean) {
  if (json || typeof result !== 'object' || result === null) return console.log(JSON.stringify(result, null, json ? 0 : 2));
  if (Array.isArray(result)) return console.table(result.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : v]))));
  for (const [k, v] of Object.entries(result)) console.log(`${k}: ${typeof v === 'object' ? JSON.stringify(v) : v}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  run(argv)
    .then((r) => print(r, argv.includes('--json')))
    .catch((e) => {
      if (e instanceof UsageError || (e as { code?: string }).code?.startsWith?.('ERR_PARSE_ARGS')) console.error(`${e.message}\n\n${USAGE}`);
      else if ((e as { code?: string }).code === 'not_found') console.error(e.message);
      else if (Array.isArray((e as { details?: unknown }).details))
        console.error([e.message, ...(e as { details: { path: string; message: string }[] }).details.map((d) => `  ${d.path}: ${d.message}`)].join('\n'));
      else if ((e as Error).name === 'TimeoutError' || /ECONNREFUSED/.test(String((e as Error).message ?? e) + String((e as { cause?: unknown }).cause ?? '')))
        console.error('Cannot reach the table. In local mode start the service first (npm start), or set GLEANER_DYNAMODB_ENDPOINT.');
      else console.error((e as Error).message ?? e);
      process.exit(1);
    });
}
