import type { Table } from '../../ports/table.js';
import { createTenant, listTenants, type Tenant } from './tenants.js';
import { createApiKey, findKeyByPlaintext } from './api-keys.js';

/**
 * First start: create tenant `default` and an admin key (scope `*`), returned once. With a
 * bootstrap key configured, that key is made the admin key instead (idempotent on restarts).
 */
export async function bootstrap(table: Table, now: Date, bootstrapKey?: string): Promise<{ tenant: Tenant; createdTenant: boolean; apiKey?: string }> {
  const tenants = await listTenants(table);
  let tenant = tenants.find((t) => t.name === 'default') ?? tenants[0];
  const createdTenant = !tenant;
  tenant ??= await createTenant(table, 'default', now);
  if (bootstrapKey) {
    if (!(await findKeyByPlaintext(table, bootstrapKey)))
      await createApiKey(table, { tenantId: tenant.tenant_id, scopes: ['*'], name: 'bootstrap admin key', plaintext: bootstrapKey }, now);
    return { tenant, createdTenant };
  }
  if (!createdTenant) return { tenant, createdTenant };
  const { api_key } = await createApiKey(table, { tenantId: tenant.tenant_id, scopes: ['*'], name: 'bootstrap admin key' }, now);
  return { tenant, createdTenant, apiKey: api_key };
}
