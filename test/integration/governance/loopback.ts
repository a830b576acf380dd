import http from 'node:http';
import net from 'node:net';

/**
 * Loopback-only test servers. Everything binds 127.0.0.1 on port 0; no test in this folder may
 * address anything but 127.0.0.1 (names like `*.test` are resolved by injected resolvers).
 */

/** A listener that must never be reached: it counts connections and drops them. */
export interface Canary {
  port: number;
  connections(): number;
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    connections: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** An HTTP fixture on 127.0.0.1; `origin` is `http://127.0.0.1:PORT`. */
export interface Fixture {
  port: number;
  origin: string;
  hostPort: string;
  server: http.Server;
  close(): Promise<void>;
}

export async function startFixture(handler: http.RequestListener): Promise<Fixture> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    hostPort: `127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with nothing listening (bound, then released). */
export async function closedPort(): Promise<number> {
  const c = await startCanary();
  await c.close();
  return c.port;
}

/**
 * Resolver for tests: `*.test` names map to loopback per the given table; anything else throws,
 * so a bug can never turn into a real DNS query.
 */
export function loopbackResolver(table: Record<string, string[] | (() => string[])>) {
  const calls: string[] = [];
  const resolve = async (host: string): Promise<string[]> => {
    calls.push(host);
    const entry = table[host];
    if (!entry) throw Object.assign(new Error(`test resolver: unknown host ${host}`), { code: 'ENOTFOUND' });
    return typeof entry === 'function' ? entry() : entry;
  };
  return { resolve, calls };
}
