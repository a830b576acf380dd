import { buildConnector } from 'undici';

/** What the connector needs from the guard: vet a host:port and name the address to dial. */
export interface HostChecker {
  checkHost(host: string, port: number, label?: string): Promise<string>;
}

/**
 * An undici connector that re-runs the egress check at connect time and dials the address the
 * check returned. This is the DNS-rebinding defence: whatever the name resolved to when the URL
 * was first checked, the socket only ever opens to an address vetted a moment before `connect()`.
 *
 * Only `hostname` (what net/tls dial) is swapped for the vetted IP; `host` is left alone because
 * undici derives the TLS servername (SNI and certificate identity) from it.
 */
export function guardedConnector(guard: HostChecker, opts: { timeout: number }): buildConnector.connector {
  const base = buildConnector({ timeout: opts.timeout });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    const label = `${options.protocol}//${options.host ?? options.hostname}`;
    guard.checkHost(options.hostname, port, label).then(
      (address) => base({ ...options, hostname: address }, callback),
      (err: Error) => callback(err, null),
    );
  };
}
