import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { HostChecker } from '../governance/guarded-connector.js';

type Callback = (err: Error | null, stream: Duplex) => void;
type Create = (options: http.ClientRequestArgs, callback?: Callback) => Duplex | null | undefined;

/**
 * Run the egress check at connect time and dial the address it vetted (never the name again),
 * the same DNS-rebinding defence the undici connector gives fetch. The TLS servername (SNI and
 * certificate identity) stays the original host name: Node's agent derived it from `host` before
 * this point, and only `host` is swapped for the address.
 */
function guardedCreate(agent: http.Agent, guard: HostChecker, base: Create, defaultPort: number, options: http.ClientRequestArgs, cb?: Callback) {
  const host = String(options.host ?? options.hostname ?? 'localhost').replace(/^\[(.*)\]$/, '$1');
  const port = Number(options.port) || defaultPort;
  guard.checkHost(host, port).then(
    (address) => {
      let socket: Duplex | null | undefined;
      try {
        socket = base.call(agent, { ...options, host: address, hostname: address });
      } catch (err) {
        return cb?.(err as Error, undefined as unknown as Duplex);
      }
      cb?.(null, socket!);
    },
    (err: Error) => cb?.(err, undefined as unknown as Duplex),
  );
  return undefined;
}

/** An http.Agent whose every connection passes the egress guard (for SDK clients that take agents). */
export class GuardedHttpAgent extends http.Agent {
  constructor(private readonly guard: HostChecker, opts: http.AgentOptions = {}) {
    super({ keepAlive: true, ...opts });
  }
  override createConnection(options: http.ClientRequestArgs, callback?: Callback): Duplex | null | undefined {
    return guardedCreate(this, this.guard, http.Agent.prototype.createConnection as Create, 80, options, callback);
  }
}

/** The https twin of {@link GuardedHttpAgent}. */
export class GuardedHttpsAgent extends https.Agent {
  constructor(private readonly guard: HostChecker, opts: https.AgentOptions = {}) {
    super({ keepAlive: true, ...opts });
  }
  override createConnection(options: https.RequestOptions, callback?: Callback): Duplex | null | undefined {
    return guardedCreate(this, this.guard, https.Agent.prototype.createConnection as Create, 443, options, callback);
  }
}
