import { createDomain, setDomainLimits, verifyDomain } from '../../functions/core/domains/verified-domains.js';
import type { Table } from '../../functions/ports/table.js';

const fetchText = async (url: string) => {
  const r = await fetch(url);
  return { status: r.status, body: await r.text() };
};

/**
 * Verify a fixture site's host for a tenant (the site answers any verification token:
 * `verifyAnyToken`) and raise its limits, so a crawl of it is not held to the polite default
 * (2 slots, 250 ms apart). What a tenant does through the API before a large crawl.
 */
export async function verifyFixtureHost(table: Table, tenantId: string, host: string, limits = { concurrency: 16, delay_ms: 0 }): Promise<void> {
  await createDomain(table, tenantId, host, [host], new Date());
  const v = await verifyDomain(table, tenantId, host, { fetchText }, new Date());
  if (v.status !== 'verified') throw new Error(`${host} was not verified: ${JSON.stringify(v)}`);
  await setDomainLimits(table, tenantId, host, limits);
}
