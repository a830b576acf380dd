import * as z from 'zod';
import { defineContracts } from './contract.js';
import { scrapeRequestSchema, runbookTestSchema } from '../../core/runs/run-task.js';
import { PAGE_KINDS, type PageKind } from '../../core/content/page-kind.js';

/** Contracts of scrape.create, runbooks.test. */

export const runbookIdParams = z.strictObject({ id: z.string().regex(/^rbk_[0-9a-z]{26}$/, 'expected a rbk_… id') });
const itemSchema = z.looseObject({ url: z.string(), fetched_at: z.string(), status_code: z.number().int(), data: z.record(z.string(), z.unknown()) });
/** `metadata` (formats has metadata): the fields API.md lists; `page_kind` says what kind of page it is (null for documents). */
const pageKindSchema = z.enum(PAGE_KINDS as [PageKind, ...PageKind[]]).nullable();
const scrapeMetadataSchema = z.looseObject({ page_kind: pageKindSchema.optional() });
/** The page as scraped; which of the optional formats appear depends on `formats`. */
const scrapeResultSchema = z.looseObject({ url: z.string(), final_url: z.string(), status_code: z.number().int(), engine_used: z.string(), metadata: scrapeMetadataSchema.optional() });
const runbookTestResult = z.looseObject({ status: z.enum(['succeeded', 'failed', 'blocked', 'stopped']), items: z.array(itemSchema), log: z.array(z.record(z.string(), z.unknown())), pages_done: z.number().int(), error: z.object({ code: z.string(), message: z.string() }).nullable() });
const syncErrors = {
  422: 'robots.txt disallows the page, or it answered with a challenge (never solved); or formats has json and no model provider is configured (model_not_configured); or a page action failed (action_failed, details: { index, type, reason })',
  502: 'The page could not be fetched',
  503: 'No browser is available for a browser page',
  504: 'The work did not finish in time; use POST /v1/runs for long work',
};

export const contracts = defineContracts({
  'scrape.create': {
    summary: 'Scrape one URL synchronously',
    body: scrapeRequestSchema,
    requestExample: { url: 'https://example.com/', formats: ['markdown', 'links', 'metadata'], only_main_content: true, exclude_tags: ['.cookie-banner'] },
    success: { 200: { description: 'The page in the formats asked for', schema: scrapeResultSchema } },
    errors: syncErrors,
  },
  'runbooks.test': {
    summary: 'Run a runbook once synchronously: result and step log',
    params: runbookIdParams,
    body: runbookTestSchema,
    bodyOptional: true,
    success: { 200: { description: 'Result and step log', schema: runbookTestResult } },
    errors: { 404: 'No such runbook', ...syncErrors },
  },
});
