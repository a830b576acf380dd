import { redactUrlCredentials } from '../redact-url.js';
import type { SourceName } from '../../config.js';
import type { RetryBudget, SourceErrorKind } from './retry-policy.js';
import type { TokenCache } from './token-cache.js';
import type { SourceLedger } from './source-ledger.js';

/** The query plan (API.md "Queries surface", results.plan). Produced by the planner. */
export interface QueryPlan {
  keywords: string[];
  phrases: string[];
  hashtags: string[]; // without '#'
  mentions: string[]; // without '@'
  exclude: string[];
  language?: string; // ISO 639-1, e.g. 'es'
  since: string; // ISO 8601
  until: string; // ISO 8601
}

/** The common item shape every connector maps to. */
export interface SourceItem {
  source: SourceName;
  id: string; // platform id, unique within the source
  url: string;
  author: string | null;
  text: string;
  created_at: string; // ISO 8601
  metrics: Record<string, number>;
}

/** Fetch-compatible function; in production it is the egress-guarded fetch. */
export type FetchFn = (url: string, init?: RequestInit) => Promise<Response>;

export interface ConnectorContext {
  plan: QueryPlan;
  limit: number;
  /** Decrypted credentials for this source, as stored by PUT /dashboard/api/sources/{source}; undefined when none. */
  credentials: Record<string, string> | undefined;
  /** Base URL of the platform API (override with GLEANER_SOURCE_<NAME>_BASE_URL). */
  baseUrl: string;
  fetch: FetchFn;
  signal: AbortSignal;
  /** Sleep that respects the signal (injected so tests can shorten Retry-After). */
  sleep: (ms: number) => Promise<void>;
  /** The tenant running the query: keys the token cache and the budgets (never shared across tenants). */
  tenantId?: string;
  /** Clock (ms since epoch); default Date.now. Reset headers and token expiry are read against it. */
  now?: () => number;
  /** Random source for backoff jitter, in [0, 1); default Math.random. */
  random?: () => number;
  /** Time this source may still spend waiting before retries in this query (shared by all its calls). */
  retryBudget?: RetryBudget;
  /** OAuth token cache (default: the process-wide one). */
  tokenCache?: TokenCache;
  /** Per-tenant budgets (YouTube units, Instagram hashtags); absent → not accounted. */
  ledger?: SourceLedger;
  /** Graph API version of this deployment (config `GLEANER_GRAPH_API_VERSION`), e.g. 'v26.0'. */
  graphApiVersion?: string;
}

export interface Connector {
  name: SourceName;
  /** Default official API base URL. */
  defaultBaseUrl: string;
  /** Credential fields accepted by PUT /dashboard/api/sources/{source} (names, all strings). */
  credentialFields: { name: string; required: boolean; description: string }[];
  /** Human text: what access the platform requires and how to add it. */
  accessNotes: string;
  /**
   * Longest search text the platform accepts (e.g. 512 for X recent search at basic access and for
   * Reddit search), with {@link Connector.searchText} building that text from a plan. Checked before
   * sending, and at submit time (400 with the limit in the message).
   */
  maxQueryLength?: number;
  searchText?(plan: QueryPlan): string;
  search(ctx: ConnectorContext): Promise<SourceItem[]>;
}

/** What a SourceError is about, beyond its message. */
export interface SourceErrorInfo {
  /** credentials, permission, quota, rate, invalid_query, platform_down or other. */
  kind?: SourceErrorKind;
  /** HTTP status of the platform's answer, when there was one. */
  status?: number;
  /** For quota errors: when the quota resets. */
  resetsAt?: Date;
}

/** Thrown by a connector; message is shown to the user in by_source[source].error. */
export class SourceError extends Error {
  readonly kind: SourceErrorKind;
  readonly status?: number;
  readonly resetsAt?: Date;
  constructor(message: string, readonly retryAfterSeconds?: number, readonly retryable = false, info: SourceErrorInfo = {}) {
    // The message is shown to the user and quotes URLs that carry tokens (`access_token=`, `key=`).
    super(redactUrlCredentials(message));
    this.name = 'SourceError';
    this.kind = info.kind ?? 'other';
    this.status = info.status;
    this.resetsAt = info.resetsAt;
  }
}
