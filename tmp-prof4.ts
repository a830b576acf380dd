import { load } from 'cheerio';
import { request } from 'undici';
import { startFixtureSite } from './test/fixtures/site/server.js';
import { EgressGuard } from './functions/core/governance/egress-guard.js';
import { RobotsPolicy } from './functions/core/governance/robots.js';
import { createEngine } from './functions/core/engine/pipeline.js';
import { fetchHttp } from './functions/core/engine/fetch-http.js';
import { parsePage } from './functions/core/engine/parse.js';
import { detectChallenge } from './functions/core/governance/challenge.js';
const site = await startFixtureSite();
const urls = Array.from({ length: 50 }, (_, i) => `${site.baseUrl}/pages/${i + 1}`);
const g = new EgressGuard({ allow: [`127.0.0.1:${site.port}`], userAgent: 'x' });
const robots = new RobotsPolicy({ userAgent: 'x', fetch: async (u) => { const r = await g.fetch(u); return { status: r.status, body: r.body.toString() }; } });
const engine = createEngine({ guard: g, robots, browser: async () => { throw new Error('no'); }, policy: { mode: 'open', domains: [] }, challengePolicy: 'skip_page', userAgent: 'x' });
async function pool(fn: (u: string) => Promise<unknown>) { const q=[...urls]; const t=performance.now(); await Promise.all(Array.from({length:4}, async()=>{ for (let u=q.shift(); u; u=q.shift()) await fn(u); })); return Math.round(50/((performance.now()-t)/1000)); }
const bareParse = (html: string, u: string) => { const $ = load(html); return [$('title').text(), $('body').text().replace(/\s+/g, ' ').trim(), new Set($('a[href]').map((_, a) => new URL($(a).attr('href')!, u).href).get())]; };
const cases: Record<string, (u: string) => Promise<unknown>> = {
  bare: async (u) => { const res = await request(u, { headers: { 'user-agent': 'x' } }); return bareParse(await res.body.text(), u); },
  guardBare: async (u) => { const r = await g.fetch(u); return bareParse(r.body.toString(), u); },
  fetchHttpParse: async (u) => { const r = await fetchHttp(g, u, { userAgent: 'x' }); return parsePage(load(r.html), u, { markdown: false }); },
  plusGov: async (u) => { await robots.check(u); const r = await fetchHttp(g, u, { userAgent: 'x' }); detectChallenge({ status: r.status, headers: r.headers, html: r.html }); return parsePage(load(r.html), u, { markdown: false }); },
  engine: (u) => engine.scrapePage(u, { engine: 'http', formats: ['text', 'links', 'metadata'] }),
};
const top: Record<string, number> = {};
for (let r = 0; r < 14; r++) for (const [k, f] of Object.entries(cases)) { const v = await pool(f); if (r >= 4) top[k] = Math.max(top[k] ?? 0, v); }
console.log(top);
await site.close(); await g.close();
