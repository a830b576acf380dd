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
for (let r = 0; r < 10; r++) await pool((u) => engine.scrapePage(u, { engine: 'http', formats: ['metadata'] }));
const { Session } = await import('node:inspector/promises');
const s = new Session(); s.connect(); await s.post('Profiler.enable'); await s.post('Profiler.start');
for (let r = 0; r < 40; r++) await pool((u) => engine.scrapePage(u, { engine: 'http', formats: ['metadata'] }));
const { profile } = await s.post('Profiler.stop') as any;
const fs = await import('node:fs'); fs.writeFileSync('/tmp/eng.cpuprofile', JSON.stringify(profile));
await site.close(); await g.close();
