import { BUILTIN_SCRAPER_SPECS, builtinScraperSpec, describeScraper } from '../scrapers/specs.js';
import { runbookScraperSpec, type RunbookDefinition } from '../scrapers/runbook-scraper-spec.js';
import { getRunbook, listRunbooks } from '../runbooks/runbooks.js';
import { runbookInputSchema } from '../scrapers/runbook-input-contract.js';
import { notFound } from '../errors.js';
import type { ScraperSpec } from '../scrapers/types.js';
import type { Table } from '../../ports/table.js';

// Built-in scrapers plus the tenant's published runbooks, as the API sees them (no running code:
// the run worker resolves runnable scrapers with find-scraper.ts).

/** A published runbook of the tenant by id, or undefined. */
export async function publishedRunbook(table: Table, tenantId: string, scraperId: string): Promise<RunbookDefinition | undefined> {
  if (!/^rbk_[0-9a-z]{26}$/.test(scraperId)) return undefined;
  const rb = await getRunbook(table, tenantId, scraperId).catch(() => undefined);
  return rb?.published ? rb : undefined;
}

/**
 * What a scraper id names (a built-in or a published runbook), to validate a run's input.
 * @throws AppError 404 when there is no such scraper.
 */
export async function findScraperSpec(table: Table, tenantId: string, scraperId: string): Promise<ScraperSpec<any>> {
  const builtin = builtinScraperSpec(scraperId);
  if (builtin) return builtin;
  const rb = await publishedRunbook(table, tenantId, scraperId);
  if (rb) return runbookScraperSpec(rb);
  throw notFound('Scraper');
}

export async function listScrapers(table: Table, tenantId: string) {
  const published = (await listRunbooks(table, tenantId, { limit: 200 })).data.filter((r) => r.published);
  return [
    ...BUILTIN_SCRAPER_SPECS.map(describeScraper),
    ...published.map((r) => ({ scraper_id: r.id, name: r.name, description: r.description, engine: 'browser' as const, input_schema: runbookInputSchema(r.steps, r.input_schema), builtin: false })),
  ];
}
