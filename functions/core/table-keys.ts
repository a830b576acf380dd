/**
 * The one key builder for the single table (Powertools' getKey habit). Every tenant-owned
 * partition key starts with `TEN#<tenant_id>`. The only global partitions are lookups keyed by
 * a secret's hash (API keys, sessions), user logins by email, hosts for cross-tenant
 * politeness, the tenant index and the local queue/schedule stores: none of them can be
 * addressed by a tenant.
 */
export const keys = {
  tenant: (t: string) => ({ pk: `TEN#${t}`, sk: 'TENANT' }),
  tenantIndex: () => 'TENANTS',
  apiKey: (sha256: string) => ({ pk: `KEYHASH#${sha256}`, sk: 'KEY' }),
  tenantKeysIndex: (t: string) => `TEN#${t}#KEYS`,
  keyIdIndex: (keyId: string) => `KEYID#${keyId}`,
  rateBucket: (t: string, bucket: string) => ({ pk: `TEN#${t}`, sk: `RATE#${bucket}` }),
  usage: (t: string, month: string) => ({ pk: `TEN#${t}`, sk: `USAGE#${month}` }),
  idempotency: (t: string, k: string) => ({ pk: `TEN#${t}`, sk: `IDEM#${k}` }),
  auditPartition: (t: string) => `TEN#${t}#AUDIT`,
  user: (email: string) => ({ pk: `USER#${email.toLowerCase()}`, sk: 'USER' }),
  session: (sha256: string) => ({ pk: `SESSION#${sha256}`, sk: 'SESSION' }),
  /** A tenant-owned record of a given kind: RUN, QRY, JOB, WHK, RBK, CAP, FILE, SRC, SET, DLV. */
  record: (t: string, kind: string, id: string) => ({ pk: `TEN#${t}`, sk: `${kind}#${id}` }),
  recordPrefix: (kind: string) => `${kind}#`,
  tenantPk: (t: string) => `TEN#${t}`,
} as const;

/** Current month key for usage counters: `2026-11`. */
export const monthOf = (d: Date) => d.toISOString().slice(0, 7);
