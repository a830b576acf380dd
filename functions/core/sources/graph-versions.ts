/**
 * Meta Graph API versions known to this code, with Meta's published retirement ("Available Until")
 * dates, from the versions table of the Graph API changelog:
 * https://developers.facebook.com/docs/graph-api/changelog/versions/ (read 2026-11; v26.0 released
 * 2026-07-29, retirement "TBD" — Meta sets it when the next version ships; each version lives about two years).
 *
 * The version in use is a deployment setting (GLEANER_GRAPH_API_VERSION, CDK context
 * `graphApiVersion`); the default is {@link DEFAULT_GRAPH_API_VERSION}, the newest stable one.
 * {@link graphVersionStatus} drives the warning shown in monitoring and on the console's Social page.
 */

export interface GraphVersionInfo {
  version: string;
  released: string; // YYYY-MM-DD
  /** Last day Meta serves it; undefined while Meta says "TBD". */
  availableUntil?: string;
}

export const GRAPH_VERSIONS: readonly GraphVersionInfo[] = [
  { version: 'v26.0', released: '2026-07-29' },
  { version: 'v25.0', released: '2026-02-18', availableUntil: '2028-07-29' },
  { version: 'v24.0', released: '2025-10-08', availableUntil: '2028-02-18' },
  { version: 'v23.0', released: '2025-05-29', availableUntil: '2027-10-08' },
  { version: 'v22.0', released: '2025-01-21', availableUntil: '2027-05-20' },
  { version: 'v21.0', released: '2024-10-02', availableUntil: '2027-01-21' },
  { version: 'v20.0', released: '2024-05-21', availableUntil: '2026-09-24' },
  { version: 'v19.0', released: '2024-01-23', availableUntil: '2026-05-21' },
];

/** The newest stable version (the default of GLEANER_GRAPH_API_VERSION). */
export const DEFAULT_GRAPH_API_VERSION = GRAPH_VERSIONS[0].version;

/** Warn this many days before a version retires. */
export const GRAPH_RETIREMENT_WARNING_DAYS = 90;

export interface GraphVersionStatus {
  version: string;
  /** Known to this code (listed in {@link GRAPH_VERSIONS}). */
  known: boolean;
  available_until: string | null;
  days_left: number | null;
  /** 'ok', 'retiring' (within the warning window), 'retired', or 'unknown' (not in the table). */
  state: 'ok' | 'retiring' | 'retired' | 'unknown';
  /** Human warning for monitoring and the console; null when all is well. */
  warning: string | null;
}

/** The retirement status of `version` at `now`. */
export function graphVersionStatus(version: string, now: Date): GraphVersionStatus {
  const info = GRAPH_VERSIONS.find((v) => v.version === version);
  const base = { version, known: !!info, available_until: info?.availableUntil ?? null };
  if (!info) {
    return {
      ...base,
      days_left: null,
      state: 'unknown',
      warning: `Graph API ${version} is not a version this release knows; check https://developers.facebook.com/docs/graph-api/changelog/versions/ and set GLEANER_GRAPH_API_VERSION (CDK context graphApiVersion) to a supported one`,
    };
  }
  if (!info.availableUntil) return { ...base, days_left: null, state: 'ok', warning: null };
  const until = Date.parse(`${info.availableUntil}T23:59:59Z`);
  const daysLeft = Math.floor((until - now.getTime()) / 86_400_000);
  const newest = DEFAULT_GRAPH_API_VERSION;
  if (daysLeft < 0) {
    return { ...base, days_left: daysLeft, state: 'retired', warning: `Graph API ${version} was retired on ${info.availableUntil}: Facebook and Instagram calls fail; set GLEANER_GRAPH_API_VERSION (CDK context graphApiVersion) to ${newest} and redeploy` };
  }
  if (daysLeft <= GRAPH_RETIREMENT_WARNING_DAYS) {
    return { ...base, days_left: daysLeft, state: 'retiring', warning: `Graph API ${version} retires on ${info.availableUntil} (in ${daysLeft} days); set GLEANER_GRAPH_API_VERSION (CDK context graphApiVersion) to ${newest} and redeploy` };
  }
  return { ...base, days_left: daysLeft, state: 'ok', warning: null };
}
