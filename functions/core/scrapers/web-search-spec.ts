import { webSearchInputSchema, type WebSearchInput } from '../search/search-request.js';
import { toInputJsonSchema } from './input-fields.js';
import type { ScraperSpec } from './types.js';

// What the API needs of web-search (validation, listing), apart from the code that runs it.

/** `web-search`: a governed search as a run (a run job can search on a schedule). */
export const webSearchSpec: ScraperSpec<WebSearchInput> = {
  scraper_id: 'web-search',
  name: 'Web search',
  description:
    "Searches the web through the tenant's search provider (the input of POST /v1/search) and yields one item per result, ranked as the provider ranked them, each with its policy decision and, with scrape, its page. With formats [\"changes\"], results are compared by URL with the previous run under the same tag: new results are reported as new (job.completed, GET /v1/changes, page.changed).",
  engine: 'http',
  builtin: true,
  inputSchema: webSearchInputSchema,
  get input_schema() {
    return toInputJsonSchema(webSearchInputSchema);
  },
};
