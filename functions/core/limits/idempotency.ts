import { createHash } from 'node:crypto';
import { keys } from '../table-keys.js';
import { ConditionFailedError, conflict, idempotencyReused, badRequest } from '../errors.js';
import type { Table } from '../../ports/table.js';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export interface StoredResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** API Gateway cuts an HTTP API integration at 30 s, so no route runs longer than 29 s unless it says so. */
export const DEFAULT_ROUTE_TIMEOUT_SECONDS = 29;

export type IdempotencyStart = { kind: 'new' } | { kind: 'replay'; response: StoredResponse };

const fingerprint = (method: string, path: string, body: string) =>
  createHash('sha256').update(`${method} ${path}\n${body}`).digest('hex');

/**
 * Claim an Idempotency-Key for this request (one conditional put). Same key + same request
 * replays the stored response; a different request gives 422; one still in flight gives 409.
 * Expired claims (24 h) are treated as absent (dynalite has no TTL, so we check on read).
 *
 * An in-flight claim lives only as long as the function that made it can run
 * (`timeoutSeconds`, the route's Lambda timeout): a handler killed at its timeout never
 * finishes its claim, and the client's retry must then run instead of answering 409 for 24 h.
 */
export async function beginIdempotent(
  table: Table, tenantId: string, key: string, method: string, path: string, body: string, now: Date,
  opts: { timeoutSeconds?: number } = {},
): Promise<IdempotencyStart> {
  if (key.length < 1 || key.length > 255 || /[^\x21-\x7e]/.test(key))
    throw badRequest('Idempotency-Key must be 1-255 printable ASCII characters');
  const fp = fingerprint(method, path, body);
  const nowS = Math.floor(now.getTime() / 1000);
  // One second of slack for clocks: the claim outlives the function that holds it, never the reverse.
  const inFlightUntil = nowS + (opts.timeoutSeconds ?? DEFAULT_ROUTE_TIMEOUT_SECONDS) + 1;
  try {
    await table.put(
      { ...keys.idempotency(tenantId, key), fingerprint: fp, state: 'in_flight', expires_at: nowS + IDEMPOTENCY_TTL_SECONDS, started_at: nowS, in_flight_until: inFlightUntil },
      {
        condition: {
          expression: 'attribute_not_exists(pk) OR expires_at < :now OR (#state = :in_flight AND in_flight_until < :now)',
          names: { '#state': 'state' },
          values: { ':now': nowS, ':in_flight': 'in_flight' },
        },
      },
    );
    return { kind: 'new' };
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e;
  }
  const rec = await table.get(keys.idempotency(tenantId, key), { consistent: true });
  if (!rec) return beginIdempotent(table, tenantId, key, method, path, body, now, opts);
  if (rec.fingerprint !== fp) throw idempotencyReused();
  if (rec.state !== 'done') throw conflict('A request with this Idempotency-Key is still in flight');
  return { kind: 'replay', response: rec.response as StoredResponse };
}

/** Store the response for replay (non-5xx), or release the claim so a retry can run (5xx). */
export async function finishIdempotent(table: Table, tenantId: string, key: string, response: StoredResponse): Promise<void> {
  if (response.status >= 500) {
    await table.delete(keys.idempotency(tenantId, key));
    return;
  }
  await table.update(keys.idempotency(tenantId, key), { set: { state: 'done', response } });
}
