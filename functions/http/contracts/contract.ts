import type { z } from 'zod';

/**
 * One route's contract: what it accepts and everything it answers with. The handler's `api()`
 * wrapper validates requests with these schemas and the OpenAPI builder documents the same
 * schemas, so the two cannot drift. Statuses every route of a kind can return (401/402/403/429
 * for keyed routes, 409/422 for Idempotency-Key, 413/415 for bodies, 500) are added by the
 * builder from the route row; a contract lists only the statuses its own handler and core add.
 *
 * Cold start: a handler imports only its group's contract module (contracts/<group>.ts), never
 * the index of all contracts, so its bundle holds no other route's schemas; and it imports it on
 * first use (pipeline/api.ts `lazyContract`), so no schema is built at init.
 */

/** Response header names, documented once under components.headers. */
export type HeaderName = 'Location' | 'Content-Disposition' | 'Set-Cookie' | 'ETag' | 'Cache-Control';

export interface SuccessSpec {
  description: string;
  /** application/json body (output side of the zod schema). */
  schema?: z.ZodType;
  /** Other media types, each with a JSON Schema for the body as a string. */
  media?: Record<string, { schema: Record<string, unknown>; example?: unknown }>;
  headers?: HeaderName[];
  example?: unknown;
}

export interface ContractSpec<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, P extends z.ZodType | undefined = undefined> {
  summary: string;
  description?: string;
  /** Navigation group in the docs; defaults to the path's first segment after /v1 or /dashboard/api. */
  tag?: string;
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out (documented as `required: false`). */
  bodyOptional?: boolean;
  requestExample?: unknown;
  /** Success statuses (2xx/3xx) and their bodies. */
  success: Record<number, SuccessSpec>;
  /** Error statuses this route's handler and core can add, with when. */
  errors?: Record<number, string>;
  /** A second error body some statuses may carry besides the shared Error (MCP's JSON-RPC errors). */
  altError?: z.ZodType;
  /** The catch-all: answers from the path and method alone, never reads the body or query. */
  ignoresInput?: boolean;
  /** Not an operation of the document (the catch-all; documented as components.responses). */
  hidden?: boolean;
}

export type Contract<B extends z.ZodType | undefined = z.ZodType | undefined, Q extends z.ZodType | undefined = z.ZodType | undefined, P extends z.ZodType | undefined = z.ZodType | undefined> =
  ContractSpec<B, Q, P> & { id: string };

/** Infers each entry's schema types and stamps the record key (the route id) into the entry. */
export function defineContracts<T extends Record<string, ContractSpec<any, any, any>>>(specs: T): { [K in keyof T]: T[K] & { id: K & string } } {
  const out: Record<string, unknown> = {};
  for (const [id, c] of Object.entries(specs)) out[id] = { ...c, id };
  return out as { [K in keyof T]: T[K] & { id: K & string } };
}

/** What a validated input turns into for the handler (unknown when the contract has no schema). */
export type Input<S> = S extends z.ZodType ? z.output<S> : unknown;
