import * as z from 'zod';

// `max_age` of POST /v1/scrape and the page-content input (API.md "Page actions and freshness").
// Kept apart from the page cache so that validating a request bundles nothing but zod.

/** The longest max_age accepted, and how long an answer is kept to serve one (30 days). */
export const MAX_AGE_LIMIT_MS = 30 * 24 * 3600 * 1000;

/** zod field, spread into the input schemas that take it. */
export const maxAgeField = z
  .number()
  .int()
  .min(0)
  .max(MAX_AGE_LIMIT_MS, `max_age may be at most ${MAX_AGE_LIMIT_MS} ms (30 days)`)
  .optional()
  .describe(
    "ms (default 0): the answer may come from this tenant's own earlier fetch of the same URL with the same options, no older than this; it then says cached: true with its fetched_at. Never for requests with actions or secrets",
  );
