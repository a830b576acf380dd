import { readFileSync, readdirSync } from 'node:fs';
import { LocalChromiumLauncher } from '../functions/adapters/local/chromium-launcher.js';
import { BrowserSession } from '../functions/core/engine/fetch-browser.js';
import { EgressGuard } from '../functions/core/governance/egress-guard.js';
import { startFixtureSite } from '../test/fixtures/site/server.js';
const site = await startFixtureSite();
const guard = new EgressGuard({ allow: [`127.0.0.1:${site.port}`], userAgent: 'x' });
const s = await BrowserSession.start({ launcher: new LocalChromiumLauncher(), guard, userAgent: 'x' });
const rss = () => { let t = 0; const root = s.browser.process()!.pid!; for (const d of readdirSync('/proc')) { if (!/^\d+$/.test(d)) continue; try { const st = readFileSync(`/proc/${d}/stat`, 'utf8'); const f = st.slice(st.lastIndexOf(')') + 2).split(' '); if (Number(d) === root || Number(f[1]) === root) t += Number(f[21]) * 4096; } catch {} } return Math.round(t / 1048576); };
const N = Number(process.env.N ?? 300); let i = 0;
const mode = process.env.V;
const bcdp = await s.browser.target().createCDPSession();
await Promise.all(Array.from({ length: 4 }, async () => { while (i < N) { const k = ++i; await s.fetch(`${site.baseUrl}/js-rich/${k}`);
  if (k % 25 === 0) {
    if (mode === 'pressure') { const p = (await s.browser.pages())[0]; const c = await p.createCDPSession(); await c.send('Memory.simulatePressureNotification', { level: 'critical' }).catch((e) => console.log(e.message)); await c.detach(); }
    if (mode === 'bpressure') await bcdp.send('Memory.simulatePressureNotification' as never, { level: 'critical' } as never).catch((e) => console.log(e.message));
  }
  if (k % 50 === 0) console.log(k, rss(), 'MB'); } }));
await s.close(); await guard.close(); await site.close();
