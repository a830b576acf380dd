import { runnableBuiltin, type Scraper } from '../scrapers/registry.js';
import { runbookScraper } from '../scrapers/runbook-scraper.js';
import { notFound } from '../errors.js';
import { publishedRunbook } from './scraper-catalog.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import type { Table } from '../../ports/table.js';
import type { SecretRedactor } from '../scrapers/secret-redactor.js';

/**
 * A runnable scraper (built-in or the tenant's published runbook) for the run worker.
 * `resolveSecret` is only needed to run a runbook; the default refuses.
 * @throws AppError 404 when there is no such scraper.
 */
export async function findScraper(
  table: Table, tenantId: string, scraperId: string, policy: TargetPolicy,
  resolveSecret: (name: string) => Promise<{ value: string; domains: string[] }> = async () => {
    throw new Error('secrets are resolved only inside a run');
  },
  redactor?: SecretRedactor,
): Promise<Scraper<any>> {
  const builtin = runnableBuiltin(scraperId);
  if (builtin) return builtin;
  const rb = await publishedRunbook(table, tenantId, scraperId);
  if (rb) return runbookScraper(rb, { policy, resolveSecret, redactor });
  throw notFound('Scraper');
}
