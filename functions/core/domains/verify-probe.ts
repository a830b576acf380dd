import http from 'node:http';
import https from 'node:https';
import type { EgressCheck } from '../governance/egress-check.js';
import { GuardedHttpAgent, GuardedHttpsAgent } from '../sync/guarded-agent.js';
import type { DomainProbe } from './verified-domains.js';

/** Options of {@link guardedDomainProbe}. */
export interface DomainProbeOptions {
  /** Also look for the DNS TXT record (aws mode; never in local mode or tests). */
  dns: boolean;
  /** Deadline for the whole exchange, redirects included (default 10 s). */
  timeoutMs?: number;
  /** Body cap: a token file is a few dozen bytes (default 4 KiB). */
  maxBytes?: number;
  /** Redirect hops followed, each re-checked by the guard (default 3). */
  maxRedirects?: number;
}

/**
 * The probe behind POST /dashboard/api/domains/{host}/verify. Every hop passes the egress check
 * twice, as every outgoing request does: up front (a refused address fails with the guard's
 * `target_forbidden` message before any socket opens) and at connect time through the guarded
 * agents, which dial the address just vetted (DNS rebinding). Built on node:http rather than the
 * engine's undici guard so the API function bundle stays light (test/cdk/api-cold-start.test.ts).
 */
export function guardedDomainProbe(check: EgressCheck, opts: DomainProbeOptions): DomainProbe {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const maxBytes = opts.maxBytes ?? 4096;
  const maxRedirects = opts.maxRedirects ?? 3;
  return {
    async fetchText(url) {
      const signal = AbortSignal.timeout(timeoutMs);
      // Fresh agents per probe, without keep-alive: nothing pooled outlives the request.
      const agents = { http: new GuardedHttpAgent(check, { keepAlive: false }), https: new GuardedHttpsAgent(check, { keepAlive: false }) };
      try {
        let current = await check.checkUrl(url);
        for (let hop = 0; ; hop++) {
          const r = await getOnce(current, agents, check.userAgent, signal, maxBytes);
          if (r.location === undefined) return { status: r.status, body: r.body };
          if (hop >= maxRedirects) throw new Error(`more than ${maxRedirects} redirects`);
          const next = new URL(r.location, current);
          // The token proves control of the host asked about only when that host serves it: a
          // redirect to another host (issue 19 finding 1) proves nothing about this one. Only an
          // upgrade to https on the same name is followed across ports.
          // The egress check comes first: a refused address is reported as such.
          current = await check.checkUrl(next.href);
          if (!sameHost(new URL(url), next)) throw new Error(`redirected to another host (${next.host}); the token must be served by the host itself`);
        }
      } catch (err) {
        if (signal.aborted) throw new Error(`no answer within ${timeoutMs / 1000} s`, { cause: err });
        throw err;
      } finally {
        agents.http.destroy();
        agents.https.destroy();
      }
    },
    ...(opts.dns
      ? { resolveTxt: async (name: string) => (await import('node:dns/promises')).resolveTxt(name) }
      : {}),
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Same host: same authority, or the same name upgraded to https on its default port. */
const sameHost = (from: URL, to: URL) => to.host === from.host || (to.hostname === from.hostname && to.protocol === 'https:' && to.port === '');

function getOnce(
  url: URL,
  agents: { http: http.Agent; https: https.Agent },
  userAgent: string,
  signal: AbortSignal,
  maxBytes: number,
): Promise<{ status: number; body: string; location?: string }> {
  const mod = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.get(url, { agent: url.protocol === 'https:' ? agents.https : agents.http, headers: { 'user-agent': userAgent, accept: 'text/plain' }, signal }, (res) => {
      const status = res.statusCode ?? 0;
      if (REDIRECTS.has(status) && typeof res.headers.location === 'string') {
        res.resume();
        return resolve({ status, body: '', location: res.headers.location });
      }
      const chunks: Buffer[] = [];
      let total = 0;
      res.on('data', (c: Buffer) => {
        total += c.length;
        if (total > maxBytes) {
          res.destroy();
          reject(new Error(`the answer is larger than ${maxBytes} bytes`));
        } else chunks.push(c);
      });
      res.on('end', () => resolve({ status, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}
