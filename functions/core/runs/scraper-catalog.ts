import { BUILTIN_SCRAPERS, builtinScraper, describeScraper, type Scraper } from '../scrapers/registry.js';
import { runbookScraper } from '../scrapers/runbook-scraper.js';
import { getRunbook, listRunbooks } from '../runbooks/runbooks.js';
import { notFound } from '../errors.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import type { Table } from '../../ports/table.js';
import type { SecretRedactor } from '../scrapers/secret-redactor.js';

/**
 * Built-in scrapers plus the tenant's published runbooks. `resolveSecret` is only needed to
 * run a runbook; validation and listing pass one that refuses.
 */
export async function findScraper(
  table: Table, tenantId: string, scraperId: string, policy: TargetPolicy,
  resolveSecret: (name: string) => Promise<{ value: string; domains: string[] }> = async () => {
    throw new Error('secrets are resolved only inside a run');
  },
  redactor?: SecretRedactor,
): Promise<Scraper<any>> {
  const builtin = builtinScraper(scraperId);
  if (builtin) return builtin;
  if (/^rbk_[0-9a-z]{26}$/.test(scraperId)) {
    const rb = await getRunbook(table, tenantId, scraperId).catch(() => undefined);
    if (rb?.published) return runbookScraper(rb, { policy, resolveSecret, redactor });
  }
  throw notFound('Scraper');
}

export async function listScrapers(table: Table, tenantId: string) {
  const published = (await listRunbooks(table, tenantId, { limit: 200 })).data.filter((r) => r.published);
  return [
    ...BUILTIN_SCRAPERS.map(describeScraper),
    ...published.map((r) => ({ scraper_id: r.id, name: r.name, description: r.description, engine: 'browser' as const, input_schema: r.input_schema, builtin: false })),
  ];
}
