import * as z from 'zod';
import { keys } from '../table-keys.js';
import { badRequest, notFound } from '../errors.js';
import { isIpLiteral } from '../governance/ip-classifier.js';
import { normalizeDomain } from '../governance/target-policy.js';
import type { Deps } from '../../runtime.js';

/**
 * The domains a secret may be typed into, fixed when it is saved: the secret is filled only on
 * pages whose host is one of them or a subdomain (and, as for every secret, in the tenant's target
 * policy allowlist). A bare top-level name (`com`) is refused: it would bind the secret to everyone.
 */
export const secretDomainsSchema = z
  .array(
    z.string().min(1).max(253).transform(normalizeDomain).refine(
      (d) => isIpLiteral(d) || /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(d) || d === 'localhost',
      'must be a host name with at least two labels (shop.example.com) or an IP address',
    ),
  )
  .min(1, 'bind the secret to at least one domain')
  .max(20);

/** A decrypted secret and the domains it is bound to. */
export interface TenantSecret {
  value: string;
  domains: string[];
}

/** Tenant secrets referenced by runbook `fill` steps (`{secret: name}`), stored encrypted with their domains. */
export async function putTenantSecret(d: Deps, tenantId: string, name: string, value: string, domains: string[], now: Date): Promise<void> {
  const ciphertext = await d.secrets.encrypt(value, { tenant_id: tenantId, purpose: 'runbook-secret', name });
  await d.table.put({ ...keys.record(tenantId, 'SECRET', name), name, ciphertext, domains, updated_at: now.toISOString() });
}

/** Decrypt a secret for a run. A secret saved before domains existed is bound to none (refilled nowhere). */
export async function resolveTenantSecret(d: Deps, tenantId: string, name: string): Promise<TenantSecret> {
  const i = await d.table.get(keys.record(tenantId, 'SECRET', name));
  if (!i) throw badRequest(`The runbook needs the secret "${name}"; add it with PUT /dashboard/api/secrets/${name}`);
  const value = await d.secrets.decrypt(String(i.ciphertext), { tenant_id: tenantId, purpose: 'runbook-secret', name });
  return { value, domains: Array.isArray(i.domains) ? i.domains.map(String) : [] };
}

export async function deleteTenantSecret(d: Deps, tenantId: string, name: string): Promise<void> {
  if (!(await d.table.delete(keys.record(tenantId, 'SECRET', name)))) throw notFound('Secret');
}

export async function listTenantSecrets(d: Deps, tenantId: string) {
  const p = await d.table.query({ pk: keys.tenantPk(tenantId), skBeginsWith: 'SECRET#' });
  return p.items.map((i) => ({ name: String(i.name), domains: Array.isArray(i.domains) ? i.domains.map(String) : [], updated_at: String(i.updated_at) }));
}
