import * as z from 'zod';
import { defineContracts } from './contract.js';
import { scrapeRequestSchema, runbookTestSchema } from '../../core/runs/run-task.js';
import { PAGE_KINDS, type PageKind } from '../../core/content/page-kinds.js';

/** Contracts of scrape.create, runbooks.test. */

export const runbookIdParams = z.strictObject({ id: z.string().regex(/^rbk_[0-9a-z]{26}$/, 'expected a rbk_… id') });
const itemSchema = z.looseObject({ url: z.string(), fetched_at: z.string(), status_code: z.number().int(), data: z.record(z.string(), z.unknown()) });
/** `metadata` (formats has metadata): the fields API.md lists; `page_kind` says what kind of page it is (null for documents). */
const pageKindSchema = z.enum(PAGE_KINDS as [PageKind, ...PageKind[]]).nullable();
const scrapeMetadataSchema = z.looseObject({ page_kind: pageKindSchema.optional() });
/** API.md "Typed data": every typed object carries where each value came from, and what was left out. */
const provenance = z.record(z.string(), z.object({ source: z.enum(['json-ld', 'microdata', 'rdfa', 'meta', 'embedded-state', 'document', 'model']), path: z.string(), confidence: z.number().min(0).max(1) }));
const envelope = { provenance, warnings: z.array(z.string()) };
const s = z.string().optional();
const link = z.object({ name: s, url: s });
const availability = z.enum(['InStock', 'OutOfStock', 'PreOrder', 'BackOrder', 'LimitedAvailability', 'Discontinued']).optional();
const productSchema = z.looseObject({
  name: s, price: s.describe('decimal string, "1299.00"'), regular_price: s, currency: s.describe('ISO 4217'), currency_raw: s, availability, sku: s, mpn: s,
  gtin: z.array(z.object({ type: z.string(), value: z.string() })).optional(), brand: z.object({ name: z.string() }).optional(), description: s,
  main_image: z.object({ url: z.string() }).optional(), images: z.array(z.object({ url: z.string() })).optional(),
  aggregate_rating: z.object({ rating_value: z.number().optional(), best_rating: z.number().optional(), review_count: z.number().optional() }).optional(),
  breadcrumbs: z.array(link).optional(), features: z.array(z.string()).optional(), additional_properties: z.array(z.object({ name: z.string(), value: z.string() })).optional(),
  variants: z.array(z.object({ name: s, sku: s, price: s, currency: s, availability, url: s })).optional(), url: s, canonical_url: s, ...envelope,
});
const productListSchema = z.looseObject({
  category_name: s, page_number: z.number().int().optional(), next_page_url: s, breadcrumbs: z.array(link).optional(),
  products: z.array(z.object({ name: s, url: s, price: s, regular_price: s, currency: s, availability, main_image: z.object({ url: z.string() }).optional() })).optional(), ...envelope,
});
const articleSchema = z.looseObject({
  headline: s, date_published: s, date_modified: s, authors: z.array(z.object({ name: z.string() })).optional(), description: s, in_language: s,
  main_image: z.object({ url: z.string() }).optional(), breadcrumbs: z.array(link).optional(), canonical_url: s, ...envelope,
});
const jobPostingSchema = z.looseObject({
  job_title: s, date_published: s, valid_through: s, hiring_organization: z.object({ name: z.string() }).optional(), job_location: z.object({ raw: z.string() }).optional(),
  employment_type: s, remote_status: z.enum(['Remote', 'Hybrid', 'OnSite']).optional(),
  base_salary: z.object({ raw: s, value_min: s, value_max: s, currency: s, rate_type: s }).optional(), description: s, url: s, ...envelope,
});

/** The page as scraped; which of the optional formats appear depends on `formats`. */
const scrapeResultSchema = z.looseObject({
  url: z.string(), final_url: z.string(), status_code: z.number().int(), engine_used: z.string(), metadata: scrapeMetadataSchema.optional(),
  product: productSchema.nullable().optional().describe('formats includes "product": the page\'s product, or null when the page is not one'),
  product_list: productListSchema.nullable().optional().describe('formats includes "product_list"'),
  article: articleSchema.nullable().optional().describe('formats includes "article"'),
  job_posting: jobPostingSchema.nullable().optional().describe('formats includes "job_posting"'),
});
const runbookTestResult = z.looseObject({ status: z.enum(['succeeded', 'failed', 'blocked', 'stopped']), items: z.array(itemSchema), log: z.array(z.record(z.string(), z.unknown())), pages_done: z.number().int(), error: z.object({ code: z.string(), message: z.string() }).nullable() });
const syncErrors = {
  422: 'robots.txt disallows the page, or it answered with a challenge (never solved); or formats has json (or a typed format with typed_options.model) and no model provider is configured (model_not_configured); or a page action failed (action_failed, details: { index, type, reason })',
  429: 'Rate limited (`rate_limited`), or `host_busy`: the target host\'s politeness (per-host concurrency, spacing, robots.txt Crawl-delay) lets no request start within the call\'s window (its timeout_ms, at most 15 s); retry after `Retry-After` seconds',
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
