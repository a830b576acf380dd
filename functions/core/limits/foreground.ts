/**
 * Short interactive work (a one-page run, a sync scrape, a runbook test) that another tenant's
 * crawl on the same process must not slow down (issue 21, fairness end to end).
 *
 * On AWS every message gets a Lambda of its own, and a crawl's share of the workers is capped
 * (TenantShare), so a crawl cannot take CPU from another tenant's run. Locally one process runs
 * everything: a crawl at full speed keeps its event loop busy, and each step of another tenant's
 * run waits behind the crawl's callbacks (a one-page run took 2 to 3 times as long). So while
 * another tenant has interactive work in this process, a crawl starts its next page only once that
 * work is done, or after {@link YIELD_MAX_MS}, so the crawl still moves. A mark lasts at most
 * {@link MARK_MS}: a long run of another tenant slows a crawl for its first seconds, not for its
 * whole length.
 * Process-local and in memory: nothing to store, nothing shared between Lambdas (where each
 * process serves one message at a time, and there is no one to yield to). The local server runs
 * crawl slices on a thread of their own (local/crawl-thread.ts) and mirrors the marks there.
 */
const MARK_MS = 3_000;
/**
 * How long a mark outlives the work that ended it. A client that waits for a run's result (a long
 * poll looks every 250 ms) sends its next request within this: its work stays marked in between,
 * so a crawl on a shared polite host does not take the host's next start in that gap and make
 * the next run wait a whole spacing behind it.
 */
const LINGER_MS = 400;
const YIELD_MAX_MS = 100;
const POLL_MS = 5;

interface Mark {
  tenant: string;
  until: number;
}
const marks = new Map<string, Mark>();
let sweepAt = 1_000;
/** Told of every mark set or cut short by its end: the local crawl thread mirrors them. */
type MarkListener = (id: string, mark: Mark) => void;
const listeners = new Set<MarkListener>();

/** Follow this thread's marks (the local server forwards them to its crawl thread); returns the unsubscribe. */
export function onForegroundChange(listener: MarkListener): () => void {
  listeners.add(listener);
  for (const [id, m] of marks) listener(id, m);
  return () => listeners.delete(listener);
}

/** Take in a mark set or cut short in another thread of this process (it runs out there by its `until`). */
export function mirrorForeground(id: string, mark: Mark): void {
  marks.set(id, { tenant: mark.tenant, until: mark.until });
}

/**
 * `id`'s work (a run, a task, an API request) for `tenant` has begun; returns the function that
 * ends it ({@link LINGER_MS} later). It ends by itself after `ms` (at most {@link MARK_MS}).
 */
export function markForeground(id: string, tenant: string, ms = MARK_MS, now = Date.now()): (at?: number) => void {
  // Ended marks are swept once the map has doubled since the last sweep: every API request marks,
  // and a sweep at each past 1,000 (32 connections at 2,500 calls/s keep about 1,000 lingering)
  // walked them all on every call.
  if (marks.size >= sweepAt) {
    for (const [k, m] of marks) if (m.until < now) marks.delete(k);
    sweepAt = Math.max(1_000, marks.size * 2);
  }
  const mark = { tenant, until: now + Math.min(ms, MARK_MS) };
  marks.set(id, mark);
  for (const l of listeners) l(id, mark);
  return (at = Date.now()) => {
    if (marks.get(id) !== mark) return;
    const until = at + LINGER_MS;
    if (until >= mark.until) return;
    mark.until = until;
    for (const l of listeners) l(id, { ...mark });
  };
}

/** Marks held (ended ones not yet swept): bounded, see markForeground. */
export const heldMarks = (): number => marks.size;

/** Interactive work of a tenant other than `tenant` under way in this process. */
export function othersInForeground(tenant: string, now = Date.now()): boolean {
  for (const [id, m] of marks) {
    if (m.until < now) marks.delete(id);
    else if (m.tenant !== tenant) return true;
  }
  return false;
}

/** Before a crawl of `tenant` starts a page: wait while another tenant's interactive work runs (at most {@link YIELD_MAX_MS}). */
export async function yieldToForeground(tenant: string): Promise<void> {
  if (!othersInForeground(tenant)) return;
  const until = Date.now() + YIELD_MAX_MS;
  while (Date.now() < until && othersInForeground(tenant)) await new Promise((r) => setTimeout(r, POLL_MS));
}
