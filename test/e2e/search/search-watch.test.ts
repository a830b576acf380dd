import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.js';
import { FAKE_KEYS, PROVIDER_SECRET_DETAIL, badDays, startFakeSearch, type FakeSearch } from '../../fixtures/fake-search/fake-search.js';
import { mcpClient, toolJson, type ToolResult } from '../../support/mcp-client.js';

// A scheduled search (built-in scraper web-search in a run job) that reports only new results,
// search.completed and page.changed (status new) to the job's webhook, and the MCP tool search
// from the official MCP client.

let svc: TestService;
let site: FixtureSite;
let hooks: WebhookReceiver;
let exa: FakeSearch;
const hp = (u: string) => new URL(u).host;

beforeAll(async () => {
  [site, hooks, exa] = await Promise.all([startFixtureSite(), startWebhookReceiver(), startFakeSearch('exa')]);
  svc = await startTestService({
    GLEANER_SEARCH_EXA_BASE_URL: exa.baseUrl,
    GLEANER_EGRESS_ALLOW: [site.baseUrl, exa.baseUrl].map(hp).concat(hooks.hostPort).join(','),
  });
  expect((await svc.call('/dashboard/api/search-providers/exa', { method: 'PUT', json: { api_key: FAKE_KEYS.exa } })).status).toBe(200);
});
afterAll(async () => {
  await svc?.destroy();
  await Promise.all([site?.close(), hooks?.close(), exa?.close()]);
});

const runOf = async (jobId: string) => {
  const started = await svc.call(`/v1/jobs/${jobId}/run`, { method: 'POST' });
  expect(started.status).toBe(202);
  const run = (await svc.call(`/v1/runs/${started.body.run_id}?wait=30`)).body;
  expect(run.status).toBe('succeeded');
  return run as { id: string; stats: Record<string, unknown> };
};

describe('web-search in a run job', () => {
  it('is listed as a built-in scraper with the search input', async () => {
    const list = (await svc.call('/v1/scrapers')).body.data as Array<{ scraper_id: string; input_schema: { required?: string[]; properties: Record<string, unknown> } }>;
    const ws = list.find((s) => s.scraper_id === 'web-search');
    expect(ws?.input_schema.required).toEqual(['query']);
    expect(Object.keys(ws!.input_schema.properties)).toEqual(expect.arrayContaining(['query', 'limit', 'provider', 'scrape', 'formats', 'change_options']));
  });

  it('reports only new results: new in the run items, job.completed, GET /v1/changes and page.changed; search.completed to the job webhook', async () => {
    const b = site.baseUrl;
    exa.results = [{ url: `${b}/about`, title: 'About', snippet: 'a' }, { url: `${b}/pages/1`, title: 'One', snippet: 'b' }];
    const w = await svc.call('/v1/webhooks', { method: 'POST', json: { url: `${hooks.baseUrl}/subscribed`, events: ['search.completed'] } });
    expect(w.status).toBe(201);
    const job = await svc.call('/v1/jobs', { method: 'POST', json: { label: 'watch', scraper_id: 'web-search', input: { query: 'gleaner news', formats: ['changes'], change_options: { tag: 'watch-news' } }, schedule: '0 6 * * *', webhook_url: `${hooks.baseUrl}/job` } });
    expect(job.status).toBe(201);
    const jobId = job.body.job_id as string;

    const first = await runOf(jobId);
    const items1 = (await svc.call(`/v1/runs/${first.id}/results`)).body.data;
    expect(items1.map((i: { url: string; data: { rank: number; change: { status: string } } }) => [i.data.rank, i.url, i.data.change.status])).toEqual([[1, `${b}/about`, 'new'], [2, `${b}/pages/1`, 'new']]);

    // The next run: one result gone, one new one ranked first.
    exa.results = [{ url: `${b}/pages/2`, title: 'Two', snippet: 'c' }, { url: `${b}/about`, title: 'About', snippet: 'a' }];
    const second = await runOf(jobId);
    const items2 = (await svc.call(`/v1/runs/${second.id}/results`)).body.data;
    expect(items2.map((i: { url: string; data: { change: { status: string } } }) => [i.url, i.data.change.status])).toEqual([[`${b}/pages/2`, 'new'], [`${b}/about`, 'same']]);

    const changes = (await svc.call(`/v1/changes?job_id=${jobId}&status=new`)).body.data.filter((c: { run_id: string }) => c.run_id === second.id);
    expect(changes.map((c: { url: string }) => c.url)).toEqual([`${b}/pages/2`]);

    const jobHooks = await hooks.waitFor('/job', 7, 30_000); // per run: search.completed, page.changed (new) per new result, job.completed
    const completed = jobHooks.filter((h) => h.json.event === 'job.completed' && h.json.run_id === second.id);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.json.changes).toMatchObject({ new: 1, same: 1 });
    const news = jobHooks.filter((h) => h.json.event === 'page.changed' && h.json.run_id === second.id);
    expect(news.map((h) => [h.json.url, h.json.status])).toEqual([[`${b}/pages/2`, 'new']]);
    const searched = jobHooks.filter((h) => h.json.event === 'search.completed' && h.json.search_id === second.id);
    expect(searched.map((h) => h.json)).toEqual([{ event: 'search.completed', search_id: second.id, query: 'gleaner news', provider: 'exa', results: 2, scraped: 0, completed_at: expect.any(String) }]);
    const subscribed = await hooks.waitFor('/subscribed', 2, 30_000);
    expect(subscribed.map((h) => h.json.event)).toEqual(['search.completed', 'search.completed']);
    // One audit record per scheduled search.
    const audits = (await svc.call('/dashboard/api/audit?action=search.run&limit=200')).body.data.filter((a: { request_id: string }) => a.request_id === second.id);
    expect(audits).toHaveLength(1);
  });
});

describe('MCP tool search', () => {
  const textOf = (r: ToolResult) => (r.content as Array<{ text: string }>)[0]!.text;

  it('is listed with the body of POST /v1/search and answers the same governed results', async () => {
    const c = await mcpClient(svc.url, svc.key);
    const tool = (await c.listTools()).tools.find((t) => t.name === 'search');
    expect(tool?.inputSchema.required).toEqual(['query']);
    expect(Object.keys(tool!.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['query', 'limit', 'provider', 'country', 'language', 'time_range', 'include_domains', 'exclude_domains', 'scrape']));
    exa.results = [{ url: `${site.baseUrl}/article`, title: 'Article', snippet: 'x' }, { url: `${site.baseUrl}/private/x`, title: 'Private', snippet: 'y' }];
    const r = await c.callTool({ name: 'search', arguments: { query: 'from an agent', scrape: { formats: ['markdown'], engine: 'http' } } });
    expect(r.isError).toBeFalsy();
    const answer = toolJson(r);
    expect(answer).toMatchObject({ query: 'from an agent', provider: 'exa', usage: { searches: 1, pages: 1 } });
    expect(answer.data.map((d: { policy: { decision: string } }) => d.policy.decision)).toEqual(['allowed', 'denied']);
    expect(answer.data[0].scrape.markdown).toMatch(/article headline/i);
    await c.close();
  });

  it('answers a provider 429 as a tool error with the code, no provider body', async () => {
    exa.state.incidents.push(badDays.rateLimited('exa', 9));
    const c = await mcpClient(svc.url, svc.key);
    const r = await c.callTool({ name: 'search', arguments: { query: 'too fast' } });
    expect(r.isError).toBe(true);
    expect(JSON.parse(textOf(r))).toMatchObject({ code: 'provider_rate_limited' });
    expect(textOf(r)).not.toContain(PROVIDER_SECRET_DETAIL);
    await c.close();
  });
});
