import * as z from 'zod';

/**
 * Every message any queue carries, one zod schema per queue (a union over its kinds). Producers
 * send through `Queue.send(queue, message)`, which is typed by these schemas and validates at
 * run time; the worker interpreter decodes with the same schemas. This module depends on zod
 * only, so a producer's bundle does not pull in the consumers' code.
 */

// --- runs ---------------------------------------------------------------------------------
/** Start a run (POST /v1/runs, MCP, runbook tests). */
export const runStartMessage = z.object({ kind: z.literal('run.start'), tenant_id: z.string().min(1), run_id: z.string().min(1) });
/** Scrape one task of a run. */
export const taskRunMessage = z.object({ kind: z.literal('task.run'), tenant_id: z.string().min(1), task_id: z.string().min(1) });

/**
 * URLs one slice message carries at most: 50 URLs of up to 4 KB each stay within SQS's 256 KB
 * message and DynamoDB's 400 KB item (the slice's record holds the same URLs).
 */
export const SLICE_MAX_URLS = 50;

/** A slice of a distributed site crawl: admitted URLs (with their place in the results) to fetch. */
export const crawlSliceMessage = z.object({
  kind: z.literal('crawl.slice'),
  tenant_id: z.string().min(1),
  run_id: z.string().min(1),
  attempt: z.number().int().min(1),
  /** The slice's record in the frontier (`<from>#<id>`), deleted when the slice is finished. */
  slice_id: z.string().min(1).max(100),
  urls: z.array(z.object({ url: z.string().url().max(4096), depth: z.number().int().min(0).max(100), ord: z.number().int().min(0), via: z.literal('sitemap').optional() })).min(1).max(SLICE_MAX_URLS),
  /** Pages the slice has in flight at once (the crawl's `concurrency`): its weight in the tenant's share of the workers. */
  in_flight: z.number().int().min(1).max(64).optional(),
});

// --- queries ------------------------------------------------------------------------------
/** Run one query (POST /v1/queries, a job run). */
export const queryRunMessage = z.object({ kind: z.literal('query.run'), tenant_id: z.string().min(1), query_id: z.string().min(1) });

// --- deliveries ---------------------------------------------------------------------------
/** A job's query reached completed or failed (sent by events/query-finished.ts). */
export const jobCompletedMessage = z.object({
  kind: z.literal('job.completed'),
  tenant_id: z.string().min(1),
  query_id: z.string().min(1),
  job_id: z.string().min(1),
});
export type JobCompletedMessage = z.infer<typeof jobCompletedMessage>;

/**
 * A run reached a terminal state (sent by the runs worker). `webhook_url` is the run's own
 * callback (POST /v1/runs `webhook_url`), signed with the tenant's job-webhook secret;
 * registered endpoints subscribed to `run.completed` receive it too. `results_url` may be
 * omitted: it is then built from the public base URL.
 */
export const runCompletedMessage = z.object({
  kind: z.literal('run.completed'),
  tenant_id: z.string().min(1),
  run_id: z.string().min(1),
  status: z.string().min(1),
  completed_at: z.string().datetime({ offset: true }),
  results_url: z.string().min(1).optional(),
  webhook_url: z.string().url().nullable().optional(),
  /** The run job that started the run: its job.completed is delivered too. */
  job_id: z.string().min(1).optional(),
});
export type RunCompletedMessage = z.infer<typeof runCompletedMessage>;

/** Make (or continue waiting for) attempt `seq + 1` of a webhook delivery. */
export const deliveryAttemptMessage = z.object({
  kind: z.literal('delivery.attempt'),
  tenant_id: z.string().min(1),
  delivery_id: z.string().min(1),
  /** Attempts already started when this message was sent; a stale or duplicate message finds more. */
  seq: z.number().int().min(0),
  /** Not before this time (a backoff longer than one queue hop). */
  not_before: z.string().datetime({ offset: true }).optional(),
});
export type DeliveryAttempt = z.infer<typeof deliveryAttemptMessage>;

/** A page changed or was removed (change tracking): deliver `page.changed` for its change record. */
export const pageChangedMessage = z.object({ kind: z.literal('page.changed'), tenant_id: z.string().min(1), change_id: z.string().min(1), include_new: z.boolean().optional() });
export type PageChangedMessage = z.infer<typeof pageChangedMessage>;

/** Copy one job result to the tenant's bucket. */
export const syncPutMessage = z.object({ kind: z.literal('sync.put'), tenant_id: z.string().min(1), query_id: z.string().min(1) });
export type SyncPut = z.infer<typeof syncPutMessage>;

// --- jobs ---------------------------------------------------------------------------------
/**
 * A schedule fire (LocalScheduler adds `scheduled_for`; on AWS the schedule's input template
 * carries `<aws.scheduler.scheduled-time>`). Without it the fire is pinned to the schedule's most
 * recent tick, which is the same for every redelivery of one fire.
 */
export const jobFireMessage = z.object({
  kind: z.literal('job.fire'),
  tenant_id: z.string().min(1),
  job_id: z.string().min(1),
  scheduled_for: z.string().datetime({ offset: true }).optional(),
});
export type JobFire = z.infer<typeof jobFireMessage>;

/** Retention: sweep one tenant, or (no tenant_id) fan out to every tenant with a policy. */
export const storageSweepMessage = z.object({ kind: z.literal('storage.sweep'), tenant_id: z.string().min(1).optional() });
export type StorageSweep = z.infer<typeof storageSweepMessage>;

/** One schema per queue: the union of the kinds that queue carries. */
export const queueMessages = {
  runs: z.discriminatedUnion('kind', [runStartMessage, taskRunMessage, crawlSliceMessage]),
  queries: z.discriminatedUnion('kind', [queryRunMessage]),
  deliveries: z.discriminatedUnion('kind', [jobCompletedMessage, runCompletedMessage, deliveryAttemptMessage, syncPutMessage, pageChangedMessage]),
  jobs: z.discriminatedUnion('kind', [jobFireMessage, storageSweepMessage]),
} as const;

export type QueueName = keyof typeof queueMessages;
export const QUEUE_NAMES = Object.keys(queueMessages) as QueueName[];
/** A message a producer may send to `Q`. */
export type MessageFor<Q extends QueueName> = z.input<(typeof queueMessages)[Q]>;
/** The kinds queue `Q` carries. */
export type KindOf<Q extends QueueName> = MessageFor<Q>['kind'];
/** The (parsed) message of one kind on queue `Q`. */
export type MessageOfKind<Q extends QueueName, K extends KindOf<Q>> = Extract<z.output<(typeof queueMessages)[Q]>, { kind: K }>;

const issues = (e: z.ZodError) => e.issues.map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`).join('; ');

/**
 * The body to put on `queue` for `message`, after checking it against the queue's schema: a
 * producer bug fails at the send, not as a poison message later.
 */
export function encodeMessage<Q extends QueueName>(queue: Q, message: MessageFor<Q>): string {
  const r = queueMessages[queue].safeParse(message);
  if (!r.success) throw new Error(`Refusing to send a malformed ${queue} message: ${issues(r.error)}`);
  return JSON.stringify(message);
}

export type Decoded<Q extends QueueName> = { ok: true; message: z.output<(typeof queueMessages)[Q]> } | { ok: false; reason: string };

/** A received body as a message of `queue`, or why it is not one (not JSON, or not the schema). */
export function decodeMessage<Q extends QueueName>(queue: Q, body: string): Decoded<Q> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: `the body is not JSON (${body.length} bytes)` };
  }
  const r = queueMessages[queue].safeParse(json);
  if (!r.success) return { ok: false, reason: `not a ${queue} message: ${issues(r.error)}` };
  return { ok: true, message: r.data as z.output<(typeof queueMessages)[Q]> };
}
