import { Agent, type Dispatcher } from 'undici';
import { EgressCheck, type EgressCheckOptions } from './egress-check.js';
import { guardedConnector } from './guarded-connector.js';
import { guardedFetch, guardedFetchResponse, type GuardedFetchInit, type GuardedResponse } from './guarded-fetch.js';

export { hostPortKey, portOf } from './egress-check.js';

/** Options of {@link EgressGuard}. */
export interface EgressGuardOptions extends EgressCheckOptions {
  /** TCP/TLS connect timeout in ms (default 10 s). */
  connectTimeoutMs?: number;
}

/**
 * The one door for outgoing traffic (DESIGN.md "Governance is the product"). A destination is
 * reachable when every address its host resolves to is public unicast, or when its exact
 * `host:port` is in the allow list (local fixtures). The check runs twice: before a request
 * (`checkUrl`, fails fast with a clear error) and again inside the dispatcher's connect step, which
 * connects to the address it just vetted, so a DNS answer that changes in between (rebinding) is
 * caught rather than trusted. The check itself is {@link EgressCheck}; this adds the connections.
 */
export class EgressGuard extends EgressCheck {
  /** undici dispatcher whose every connection is re-checked at connect time. */
  readonly dispatcher: Dispatcher;

  constructor(opts: EgressGuardOptions) {
    super(opts);
    this.dispatcher = new Agent({ connect: guardedConnector(this, { timeout: opts.connectTimeoutMs ?? 10_000 }) });
  }

  /** Fetch with redirects followed manually (each hop re-checked), a body cap and a timeout. */
  fetch(url: string, init: GuardedFetchInit = {}): Promise<GuardedResponse> {
    return guardedFetch(this, url, init);
  }

  /** Same guard, returning a standard Response (body not buffered) for connectors and webhooks. */
  fetchResponse(url: string, init: GuardedFetchInit = {}): Promise<Response> {
    return guardedFetchResponse(this, url, init);
  }

  /** Close pooled connections. */
  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}
