import { keys } from '../table-keys.js';
import { badRequest } from '../errors.js';
import type { SourceName } from '../../config.js';
import type { Table } from '../../ports/table.js';
import type { Secrets } from '../../ports/secrets.js';
import type { Connector } from './types.js';

const ctx = (tenantId: string, source: string) => ({ tenant_id: tenantId, purpose: 'source-credentials', source });

/** Validate against the connector's declared fields, then store encrypted (never returned). */
export async function putSourceCredentials(
  table: Table, secrets: Secrets, tenantId: string, connector: Connector, creds: Record<string, string>, now: Date,
): Promise<{ source: SourceName; fields: string[]; updated_at: string }> {
  const known = new Set(connector.credentialFields.map((f) => f.name));
  const unknown = Object.keys(creds).filter((k) => !known.has(k));
  const missing = connector.credentialFields.filter((f) => f.required && !creds[f.name]).map((f) => f.name);
  if (unknown.length || missing.length)
    throw badRequest(`Credentials for ${connector.name} take: ${connector.credentialFields.map((f) => `${f.name}${f.required ? ' (required)' : ''}`).join(', ')}`, [
      ...unknown.map((k) => ({ path: `body.${k}`, message: 'Unknown credential field' })),
      ...missing.map((k) => ({ path: `body.${k}`, message: 'Required' })),
    ]);
  const ciphertext = await secrets.encrypt(JSON.stringify(creds), ctx(tenantId, connector.name));
  const rec = { source: connector.name, fields: Object.keys(creds).sort(), updated_at: now.toISOString() };
  await table.put({ ...keys.record(tenantId, 'SRC', connector.name), ...rec, ciphertext });
  return rec;
}

export async function getSourceCredentials(table: Table, secrets: Secrets, tenantId: string, source: SourceName): Promise<Record<string, string> | undefined> {
  const i = await table.get(keys.record(tenantId, 'SRC', source));
  if (!i?.ciphertext) return undefined;
  return JSON.parse(await secrets.decrypt(String(i.ciphertext), ctx(tenantId, source)));
}

/** Which sources are configured (field names and time only). */
export async function listSourceCredentials(table: Table, tenantId: string) {
  const p = await table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: keys.recordPrefix('SRC') });
  return p.items.map((i) => ({ source: String(i.source), fields: i.fields as string[], updated_at: String(i.updated_at) }));
}

export async function deleteSourceCredentials(table: Table, tenantId: string, source: SourceName) {
  await table.delete(keys.record(tenantId, 'SRC', source));
}
