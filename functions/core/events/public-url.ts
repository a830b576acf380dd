import type { Config } from '../../config.js';

/**
 * Absolute base of the public API, for URLs placed in event payloads (`result_url`): the
 * configured GLEANER_PUBLIC_URL, else, in local mode with a fixed port, `http://127.0.0.1:<PORT>`.
 * With neither (an ephemeral port, or AWS without a public URL) there is no meaningful absolute
 * base, and payloads carry a path relative to the API origin (`/v1/storage/…`).
 */
export function publicBaseUrl(config: Pick<Config, 'publicUrl' | 'port' | 'mode'>): string {
  if (config.publicUrl) return config.publicUrl.replace(/\/+$/, '');
  if (config.mode === 'local' && config.port > 0) return `http://127.0.0.1:${config.port}`;
  return '';
}

/** URL of GET /v1/storage/{key} for a result file (the key as one encoded path segment). */
export const resultUrl = (config: Pick<Config, 'publicUrl' | 'port' | 'mode'>, key: string) =>
  `${publicBaseUrl(config)}/v1/storage/${encodeURIComponent(key)}`;

/** URL of GET /v1/runs/{id}/results. */
export const runResultsUrl = (config: Pick<Config, 'publicUrl' | 'port' | 'mode'>, runId: string) =>
  `${publicBaseUrl(config)}/v1/runs/${encodeURIComponent(runId)}/results`;
