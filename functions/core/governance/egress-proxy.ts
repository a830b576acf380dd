import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { AppError } from '../errors.js';
import type { EgressGuard } from './egress-guard.js';

/** A running in-process egress proxy. */
export interface EgressProxy {
  /** `http://127.0.0.1:PORT`, for Chromium's `--proxy-server`. */
  url: string;
  /** Requests and tunnels refused by the guard since start. */
  blocked(): number;
  /** What was refused: absolute URLs for plain requests, `host:port` for CONNECT tunnels. */
  blockedUrls(): string[];
  /**
   * Screen a request the browser will not make (an image the engine does not load) exactly as
   * the proxy would have: http URLs by URL, https/wss by `host:port` (what a CONNECT would carry).
   * A refusal is counted in {@link blocked} and {@link blockedUrls}; nothing is dialled.
   */
  screen(url: string): Promise<void>;
  /**
   * Also refuse every request (navigation, subresource, WebSocket, tunnel) whose host `check`
   * throws for: the tenant's target policy (issue 19 finding 1), applied before the guard.
   */
  restrictHosts(check: (hostname: string) => void): void;
  close(): Promise<void>;
}

/**
 * Chromium launch flags that send ALL browser traffic through the proxy. `<-loopback>` removes
 * Chromium's implicit bypass for localhost/127.0.0.1, which would otherwise reach loopback
 * services directly. The WebRTC policy stops UDP that would not go through the proxy.
 */
export function chromiumProxyArgs(proxyUrl: string): string[] {
  return [
    `--proxy-server=${proxyUrl}`,
    '--proxy-bypass-list=<-loopback>',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  ];
}

// Hop-by-hop headers (RFC 9110 7.6.1) plus the proxy's own; never forwarded upstream.
const HOP = ['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade'];

function forwardHeaders(headers: http.IncomingHttpHeaders, keepUpgrade: boolean): http.OutgoingHttpHeaders {
  const listed = String(headers.connection ?? '').toLowerCase().split(',').map((h) => h.trim());
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || HOP.includes(k) || listed.includes(k)) continue;
    out[k] = v;
  }
  if (keepUpgrade && headers.upgrade) Object.assign(out, { connection: 'Upgrade', upgrade: headers.upgrade });
  return out;
}

/** Parse a CONNECT authority (`host:port`, `[v6]:port`). */
function parseAuthority(raw: string | undefined): { host: string; port: number } | null {
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:[\]\s/]+):(\d{1,5})$/.exec(raw ?? '');
  const port = Number(m?.[2]);
  return m && port > 0 && port < 65536 ? { host: m[1], port } : null;
}

/**
 * Start the egress proxy Chromium uses (see {@link chromiumProxyArgs}). Every navigation, redirect
 * (Chromium follows them, each hop is a new proxied request), subresource and WebSocket goes through
 * `guard`: CONNECT tunnels (https, wss) are vetted by `host:port`, absolute-URI http requests and
 * WebSocket upgrades by URL. The proxy dials the vetted address, never the name, so a DNS answer
 * that changes after the check cannot redirect the connection (rebinding).
 */
export async function startEgressProxy(guard: EgressGuard): Promise<EgressProxy> {
  const refused: string[] = [];
  let hostCheck: ((hostname: string) => void) | undefined;
  /** The target policy first (a refusal is a 403 like the guard's), then the egress guard. */
  const vetHost = (hostname: string) => hostCheck?.(hostname.replace(/^\[|\]$/g, ''));
  const sockets = new Set<Duplex>();
  const track = <S extends Duplex>(s: S): S => {
    if (sockets.has(s)) return s; // a pooled upstream socket serves many requests
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
    return s;
  };
  const deny = (what: string, err: unknown): { status: number; text: string } => {
    if (err instanceof AppError && (err.code === 'target_forbidden' || err.code === 'target_not_authorized')) {
      refused.push(what);
      return { status: 403, text: `Blocked by egress guard: ${err.message}` };
    }
    return { status: 502, text: 'Bad gateway' };
  };
  const rawReply = (socket: Duplex, status: number, text: string) => {
    socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\nconnection: close\r\ncontent-length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  };

  /** Dial the vetted address and join the two sockets; `greet` runs once the upstream is up. */
  const splice = (client: Duplex, port: number, address: string, greet: (upstream: net.Socket) => void) => {
    let up = false;
    const upstream = track(net.connect(port, address));
    upstream.once('connect', () => {
      up = true;
      greet(upstream);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.once('error', () => (up ? client.destroy() : rawReply(client, 502, 'Upstream connect failed')));
    client.once('close', () => upstream.destroy());
  };

  // Upstream connections are kept alive between requests: a page's subresources would otherwise
  // each pay a connect and a close. The pool is keyed by the vetted address (what `host` is set
  // to below), so a pooled socket only ever serves the address it was opened to after a check.
  // Idle sockets go after 4 s, before common servers drop theirs (5 s), to avoid reuse races.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 4_000 });

  const server = http.createServer((req, res) => {
    void (async () => {
      let target: { url: URL; address: string };
      try {
        if (!/^http:\/\//i.test(req.url ?? '')) throw new AppError(400, 'bad_proxy_request', 'absolute http:// URI required');
        vetHost(new URL(req.url!).hostname);
        target = await guard.checkTarget(req.url!);
      } catch (err) {
        const d = err instanceof AppError && err.code === 'bad_proxy_request' ? { status: 400, text: err.message } : deny(req.url ?? '', err);
        res.writeHead(d.status, { 'content-type': 'text/plain' }).end(d.text);
        return;
      }
      const { url, address } = target;
      const upstream = http.request({
        host: address, port: Number(url.port) || 80, method: req.method, path: url.pathname + url.search,
        headers: { ...forwardHeaders(req.headers, false), host: url.host }, agent,
      });
      upstream.on('response', (up) => {
        res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardHeaders(up.headers, false));
        up.pipe(res);
      });
      upstream.on('socket', (s) => track(s));
      upstream.on('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end('Bad gateway')));
      // The browser went away mid-response: drop the upstream exchange (a finished one keeps its socket).
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      req.pipe(upstream);
    })();
  });

  server.on('connection', (s) => track(s));

  // CONNECT: https and wss (Chromium tunnels WebSockets too). Vet host:port, then splice sockets.
  server.on('connect', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    const target = parseAuthority(req.url);
    if (!target) return rawReply(client, 400, 'CONNECT needs host:port');
    Promise.resolve()
      .then(() => vetHost(target.host))
      .then(() => guard.checkHost(target.host, target.port, req.url))
      .then(
        (address) =>
          splice(client, target.port, address, (upstream) => {
            client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
            if (head.length) upstream.write(head);
          }),
        (err) => {
          const d = deny(req.url ?? '', err);
          rawReply(client, d.status, d.text);
        },
      );
  });

  // Plain ws:// through an absolute-URI Upgrade request: vet the URL, replay the request upstream.
  server.on('upgrade', (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    track(client);
    // Only plaintext upgrades arrive here (wss is tunnelled with CONNECT), so only http:/ws: make sense.
    if (!/^(http|ws):\/\//i.test(req.url ?? '')) return rawReply(client, 400, 'absolute http:// or ws:// URI required');
    Promise.resolve()
      .then(() => vetHost(new URL(req.url ?? '').hostname))
      .then(() => guard.checkTarget((req.url ?? '').replace(/^ws:/i, 'http:')))
      .then(
        ({ url, address }) =>
          splice(client, Number(url.port) || 80, address, (upstream) => {
            const headers = { ...forwardHeaders(req.headers, true), host: url.host };
            const lines = Object.entries(headers).flatMap(([k, v]) => [v ?? []].flat().map((x) => `${k}: ${x}`));
            upstream.write(`${req.method} ${url.pathname}${url.search} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
            if (head.length) upstream.write(head);
          }),
        (err) => {
          const d = deny(req.url ?? '', err);
          rawReply(client, d.status, d.text);
        },
      );
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    blocked: () => refused.length,
    blockedUrls: () => [...refused],
    async screen(raw) {
      let u: URL;
      try {
        u = new URL(raw);
      } catch {
        return;
      }
      const tunnel = u.protocol === 'https:' || u.protocol === 'wss:';
      const authority = `${u.hostname}:${Number(u.port) || 443}`;
      try {
        if (u.protocol === 'http:' || u.protocol === 'ws:' || tunnel) vetHost(u.hostname);
        if (u.protocol === 'http:' || u.protocol === 'ws:') await guard.checkTarget(raw.replace(/^ws:/i, 'http:'));
        else if (tunnel) await guard.checkHost(u.hostname, Number(u.port) || 443, authority);
        // data:, blob: and the like never reach the network.
      } catch (err) {
        deny(tunnel ? authority : raw, err);
      }
    },
    restrictHosts(check) {
      hostCheck = check;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        agent.destroy();
        for (const s of sockets) s.destroy();
      }),
  };
}
