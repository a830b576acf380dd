/**
 * Process shutdown as an AbortSignal every run and task listens to: on shutdown they stop at
 * once, close their browser, and leave their queue message in place (a later process recovers
 * and re-runs them) instead of finishing as failed. Each shutdown replaces the controller, so a
 * service restarted in the same process (tests) starts with a fresh signal.
 */
let controller = new AbortController();

/** The signal of the current process lifetime (captured by each run at its start). */
export const shutdownSignal = (): AbortSignal => controller.signal;

/** Abort every run and task in progress (local server shutdown). */
export function requestShutdown(): void {
  const c = controller;
  controller = new AbortController();
  c.abort(new Error('The service is shutting down'));
}
