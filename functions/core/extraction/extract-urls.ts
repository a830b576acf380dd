import * as z from 'zod';
import { AppError, badRequest } from '../errors.js';
import { checkTargets } from '../runs/check-targets.js';
import { assertQuota } from '../limits/usage.js';
import { awaitTask, startTask } from '../runs/scrape-task.js';
import { assertExtractionReady } from './readiness.js';
import { jsonOptionsSchema } from './json-options.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { Tenant } from '../tenancy/tenants.js';
import type { Deps } from '../../runtime.js';
import type { JsonError } from './types.js';

/** Input of the MCP `extract` tool (API.md "Model extraction"). */
export const extractUrlsSchema = z.strictObject({
  urls: z.array(z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).max(2048)).min(1).max(20).describe('Pages to extract from (1-20)'),
  schema: z.record(z.string(), z.unknown()).describe('JSON Schema of the object to extract from each page ("type": "object" at the top)'),
  prompt: z.string().min(1).max(4000).optional().describe('What to extract, in your words'),
});
export type ExtractUrlsInput = z.infer<typeof extractUrlsSchema>;

export type ExtractUrlResult = { url: string; json: unknown } | { url: string; json_error: JsonError };

/** Per page: time for the fetch (the scrape's own timeout), then the model; the whole call fits the API's 29 s. */
const PAGE_TIMEOUT_MS = 15_000;
const WAIT_MS = 25_000;

/**
 * One object per URL, each page a synchronous scrape with the json format: the same worker,
 * governance, quotas, audit and metering as POST /v1/scrape, one model conversation per page (no
 * page can reach another's). Submit checks run for every URL before anything is fetched.
 */
export async function extractUrls(d: Deps, guard: EgressCheck, tenant: Tenant, input: ExtractUrlsInput, now: Date): Promise<ExtractUrlResult[]> {
  const opts = jsonOptionsSchema.safeParse({ schema: input.schema, prompt: input.prompt });
  if (!opts.success) throw badRequest('The schema or prompt is not usable', opts.error.issues.map((i) => ({ path: ['json_options', ...i.path.map(String)].join('.'), message: i.message })));
  await checkTargets(guard, tenant, input.urls);
  await assertQuota(d.table, tenant, 'pages', now);
  await assertExtractionReady(d, tenant, { formats: ['json'], json_options: opts.data }, now);
  const tasks = await Promise.all(
    input.urls.map((url) => startTask(d, tenant.tenant_id, 'scrape', { url, formats: ['json'], json_options: opts.data, timeout_ms: PAGE_TIMEOUT_MS }, now, 'mcp')),
  );
  return Promise.all(
    tasks.map(async (t, i): Promise<ExtractUrlResult> => {
      const url = input.urls[i]!;
      try {
        const page = (await awaitTask(d, tenant.tenant_id, t.task_id, WAIT_MS)) as { json?: unknown; json_error?: JsonError };
        if (page.json !== undefined) return { url, json: page.json };
        return { url, json_error: page.json_error ?? { code: 'no_result', message: 'The page gave no result' } };
      } catch (e) {
        if (e instanceof AppError) return { url, json_error: { code: e.code, message: e.message } };
        throw e;
      }
    }),
  );
}
