import pkg from '../../package.json' with { type: 'json' };

export const SERVICE_VERSION: string = pkg.version;

/** The service info document (SPEC.md 2.1). */
export function serviceInfo(origin: string, env: string) {
  return {
    service: 'gleaner',
    what: 'Governed, multi-tenant web scraping and data collection service',
    env,
    version: SERVICE_VERSION,
    docs: `${origin}/docs`,
    openapi: `${origin}/v1/openapi.json`,
    auth: 'Send a Bearer API key in the Authorization header: "Authorization: Bearer <API_KEY>". Every call is scope-checked and audited.',
    surfaces: {
      product_api: `${origin}/v1/* (runs: scrapers, runs, run results; scrape, runbooks, captcha; queries: queries, jobs, storage, webhooks)`,
      console_api: `${origin}/dashboard/api/* (same-origin from the web console: datasets, monitoring, antidetect, social, studio)`,
      console_ui: `${origin}/`,
      mcp: `${origin}/mcp (agent endpoint; call the tool get_started)`,
    },
    quickstart:
      '1) GET /v1/scrapers to list scrapers. 2) POST /v1/runs with {"scraper_id":"page-content","input":{"url":"https://example.com"}} to start a run. 3) GET /v1/runs/{id} (add ?wait=30 to long-poll) until status is succeeded. 4) GET /v1/runs/{id}/results for the items.',
    rules:
      'Collect only from targets you are authorized to collect from; stay within rate limits; never bypass authentication, paywalls or a CAPTCHA used as security; never touch data you do not own. Only lawful, authorized use is permitted. Gleaner honours robots.txt, refuses private network targets and stops at CAPTCHA and challenge pages.',
  };
}
