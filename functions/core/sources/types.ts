import type { SourceName } from '../../config.js';

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
}

export interface Connector {
  name: SourceName;
  /** Default official API base URL. */
  defaultBaseUrl: string;
  /** Credential fields accepted by PUT /dashboard/api/sources/{source} (names, all strings). */
  credentialFields: { name: string; required: boolean; description: string }[];
  /** Human text: what access the platform requires and how to add it. */
  accessNotes: string;
  search(ctx: ConnectorContext): Promise<SourceItem[]>;
}

/** Thrown by a connector; message is shown to the user in by_source[source].error. */
export class SourceError extends Error {
  constructor(message: string, readonly retryAfterSeconds?: number, readonly retryable = false) {
    super(message);
    this.name = 'SourceError';
  }
}
