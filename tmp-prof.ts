import { load } from 'cheerio';
import { request } from 'undici';
import { startFixtureSite } from './test/fixtures/site/server.js';
import { EgressGuard } from './functions/core/governance/egress-guard.js';
import { RobotsPolicy } from './functions/core/governance/robots.js';
import { createEngine } from './functions/core/engine/pipeline.js';
const site = await startFixtureSite();
const urls = Array.from({ length: 50 }, (_, i) => `${site.baseUrl}/pages/${i + 1}`);
const g = new EgressGuard({ allow: [`127.0.0.1:${site.port}`], userAgent: 'x' });
const robots = new RobotsPolicy({ userAgent: 'x', fetch: async (u) => { const r = await g.fetch(u); return { status: r.status, body: r.body.toString() }; } });
const engine = createEngine({ guard: g, robots, browser: async () => { throw new Error('no'); }, policy: { mode: 'open', domains: [] }, challengePolicy: 'skip_page', userAgent: 'x' });
async function pool(fn: (u: string) => Promise<unknown>) { const q=[...urls]; const t=performance.now(); await Promise.all(Array.from({length:4}, async()=>{ for (let u=q.shift(); u; u=q.shift()) await fn(u); })); return Math.round(50/((performance.now()-t)/1000)); }
const cases: Record<string, (u: string) => Promise<unknown>> = {
  bare: async (u) => { const res = await request(u, { headers: { 'user-agent': 'x' } }); const $ = load(await res.body.text()); return [$('title').text(), $('body').text().replace(/\s+/g, ' ').trim(), new Set($('a[href]').map((_, a) => new URL($(a).attr('href')!, u).href).get())]; },
  undiciOnly: async (u) => { const res = await request(u); await res.body.text(); },
  guardFetchOnly: async (u) => { await g.fetch(u); },
  guardFetchLoad: async (u) => { const r = await g.fetch(u); load(r.body.toString()); },
  engineNoText: (u) => engine.scrapePage(u, { engine: 'http', formats: ['metadata'] }),
  engine: (u) => engine.scrapePage(u, { engine: 'http', formats: ['text', 'links', 'metadata'] }),
};
for (let r = 0; r < 8; r++) { const row: string[] = []; for (const [k, f] of Object.entries(cases)) row.push(`${k}=${await pool(f)}`); if (r >= 3) console.log(row.join(' ')); }
await site.close(); await g.close();
