import { keys } from '../table-keys.js';
import { badRequest, notFound } from '../errors.js';
import type { Deps } from '../../runtime.js';

/** Tenant secrets referenced by runbook `fill` steps (`{secret: name}`), stored encrypted. */
export async function putTenantSecret(d: Deps, tenantId: string, name: string, value: string, now: Date): Promise<void> {
  const ciphertext = await d.secrets.encrypt(value, { tenant_id: tenantId, purpose: 'runbook-secret', name });
  await d.table.put({ ...keys.record(tenantId, 'SECRET', name), name, ciphertext, updated_at: now.toISOString() });
}

export async function resolveTenantSecret(d: Deps, tenantId: string, name: string): Promise<string> {
  const i = await d.table.get(keys.record(tenantId, 'SECRET', name));
  if (!i) throw badRequest(`The runbook needs the secret "${name}"; add it with PUT /dashboard/api/secrets/${name}`);
  return d.secrets.decrypt(String(i.ciphertext), { tenant_id: tenantId, purpose: 'runbook-secret', name });
}

export async function deleteTenantSecret(d: Deps, tenantId: string, name: string): Promise<void> {
  if (!(await d.table.delete(keys.record(tenantId, 'SECRET', name)))) throw notFound('Secret');
}

export async function listTenantSecrets(d: Deps, tenantId: string) {
  const p = await d.table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: 'SECRET#' });
  return p.items.map((i) => ({ name: String(i.name), updated_at: String(i.updated_at) }));
}
