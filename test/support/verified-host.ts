import { createDomain, setDomainLimits, verifyDomain } from '../../functions/core/domains/verified-domains.js';
import type { Table } from '../../functions/ports/table.js';
import { startTestService, type TestService } from './local-service.js';
import { startFixtureSite, type FixtureSite } from '../fixtures/site/server.js';

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

/**
 * A fixture site graph of `pages` pages and the local service (2 runs workers), the site's host
 * verified for the service's tenant: the setup of the crawl tests that time nothing.
 */
export async function startVerifiedCrawl(pages: number): Promise<{ svc: TestService; site: FixtureSite }> {
  const site = await startFixtureSite({ graphPages: pages, verifyAnyToken: true, robotsTxt: 'User-agent: *\nAllow: /\n' });
  const host = new URL(site.baseUrl).host;
  const svc = await startTestService({ GLEANER_EGRESS_ALLOW: host, GLEANER_CONCURRENCY_RUNS: '2' });
  await verifyFixtureHost(svc.deps.table, svc.tenantId, host);
  return { svc, site };
}
