import type { TrackedPage } from './change-tracker.js';

/**
 * A page that could not be read (a time-out, a challenge, a robots skip; status 0 when nothing
 * answered): never a change, its baseline stays. A module of its own so that the scraper specs
 * that build one do not load the tracker.
 */
export const unavailablePage = (url: string, fetchedAt: string, statusCode = 0): TrackedPage => ({
  url, fetched_at: fetchedAt, status_code: statusCode, unavailable: true, markdown: null, structured: null,
});
