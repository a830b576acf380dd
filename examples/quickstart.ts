/**
 * Quickstart with a typed client: list scrapers, start a run, wait for it, read its items.
 *
 *   npx tsx examples/gen-client.ts            # types from the served document
 *   GLEANER_URL=http://127.0.0.1:3000 GLEANER_API_KEY=glr_… npx tsx examples/quickstart.ts https://example.com/
 *
 * Every call below is type-checked against examples/gleaner-api.d.ts: paths, parameters, bodies
 * and the success and error shapes. openapi-fetch answers `{ data }` for 2xx and `{ error }`
 * (the API's `{code, message, request_id}`) otherwise.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './gleaner-api.js';

type Run = paths['/v1/runs/{id}']['get']['responses'][200]['content']['application/json'];
type ApiError = components['schemas']['Error'];

function fail(what: string, e: ApiError): never {
  throw new Error(`${what}: ${e.code}: ${e.message} (request ${e.request_id})`);
}

export async function quickstart(baseUrl: string, apiKey: string, url: string) {
  // JSON only: exports (CSV, NDJSON) are other media types of the same operations.
  const api = createClient<paths, 'application/json'>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } });

  const scrapers = await api.GET('/v1/scrapers');
  if (scrapers.error) fail('list scrapers', scrapers.error);
  const names = scrapers.data.data.map((s) => s.scraper_id);

  const created = await api.POST('/v1/runs', {
    body: { scraper_id: 'page-content', input: { url } },
    headers: { 'Idempotency-Key': `quickstart-${url}` },
  });
  if (created.error) fail('start run', created.error);
  let run: Run = created.data;

  // ?wait=25 long-polls: the answer comes when the run ends or after at most 25 s.
  while (run.status === 'queued' || run.status === 'running') {
    const polled = await api.GET('/v1/runs/{id}', { params: { path: { id: run.id }, query: { wait: 25 } } });
    if (polled.error) fail('poll run', polled.error);
    run = polled.data;
  }
  if (run.status !== 'succeeded') throw new Error(`run ${run.id} ended ${run.status}: ${run.error?.message ?? run.stop_reason}`);

  const results = await api.GET('/v1/runs/{id}/results', { params: { path: { id: run.id }, query: { limit: 50 } } });
  if (results.error) fail('read results', results.error);
  return { scrapers: names, run, items: results.data.data };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { run, items } = await quickstart(process.env.GLEANER_URL ?? 'http://127.0.0.1:3000', process.env.GLEANER_API_KEY ?? '', process.argv[2] ?? 'https://example.com/');
  console.log(`run ${run.id} ${run.status}: ${items.length} item(s)`);
  for (const i of items) console.log(`${i.status_code} ${i.url}`);
}
