import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { Route } from '../../routes.js';
import type { Tenant } from '../../core/tenancy/tenants.js';
import type { Deps } from '../../runtime.js';

export type Event = APIGatewayProxyEventV2;
/**
 * What a handler answers with. `stream` (from a result's `stream`) is the body as chunks, for the
 * streaming interpreter (pipeline/streaming.ts); its first chunk was already read by the pipeline.
 */
export type Result = APIGatewayProxyStructuredResultV2 & { stream?: AsyncIterable<string> };

export interface Principal {
  type: 'key' | 'user';
  id: string;
  scopes: string[];
  tenant_id: string;
  /** A console user's email (audit records carry it so the console shows people, not ids). */
  email?: string;
  /** When the credential that authenticated the call expires (keys); null or absent = never. */
  expires_at?: string | null;
}

/** What a handler's core call sees: already authenticated, authorised, limited and validated. */
export interface ApiRequest<B = unknown, Q = unknown, P = unknown> {
  body: B;
  query: Q;
  params: P;
  headers: Record<string, string | undefined>;
  /** The HTTP method and the raw path as the caller sent them. */
  method: string;
  path: string;
  route: Route;
  requestId: string;
  /** Present on authenticated routes. */
  principal: Principal;
  tenant: Tenant;
  deps: Deps;
  now: Date;
  /** The caller's address as the pipeline determined it (audit, login throttling). */
  clientIp: string | null;
  /** Origin the caller used (for absolute URLs in responses). */
  origin: string;
  cookie(name: string): string | undefined;
  /** Audit resource, when the handler knows one (a run id, a key id). */
  setResource(resource: string): void;
}

export interface ApiResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Pre-serialised body (NDJSON, CSV, HTML); sent as is. */
  raw?: string;
  /**
   * A body produced chunk by chunk (exports), for routes the route table marks `stream: true`: it
   * is written to the client as it is produced, never held whole. Its first chunk is read before
   * the status is sent, so a failure to start is still a `{code, message}` error.
   */
  stream?: AsyncIterable<string>;
}

/** Per-request state shared by the middlewares (the chain's request.internal, pipeline/middleware-chain.ts). */
export interface PipelineState {
  requestId: string;
  startedAt: number;
  route: Route;
  principal?: Principal;
  tenant?: Tenant;
  resource: string | null;
  rateHeaders?: Record<string, string>;
  pendingRate?: Promise<void>;
  idempotencyKey?: string;
  replay?: Result;
  body?: unknown;
  query?: unknown;
  params?: unknown;
  deps: Deps;
  now: Date;
}
