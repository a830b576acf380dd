import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryStores } from '../foundation/stores.js';
import { ChangeTracker } from '../../../functions/core/changes/change-tracker.js';
import type { EmbeddedStores } from '../../../functions/local/embedded-stores.js';
import type { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import type { Blobs } from '../../../functions/ports/blobs.js';
import type { Queue } from '../../../functions/ports/queue.js';

// Issue 37 finding 13: the fragment was dropped from a page's identity, so a single-page app's
// routes `#/a` and `#/b` read in the browser shared one change baseline (each fetch of one
// reported the other as a change). In the browser (and `auto`) a route is a page of its own; the
// http engine never sends a fragment, so there it still names the same page.
let stores: EmbeddedStores;
let table: DynamoTable;
beforeAll(async () => {
  ({ table, stores } = await memoryStores());
});
afterAll(async () => stores?.close());

const objects = new Map<string, Uint8Array>();
const blobs: Blobs = { put: async (b, k, body) => void objects.set(`${b}/${k}`, Buffer.from(body)), get: async (b, k) => objects.get(`${b}/${k}`), delete: async (b, k) => void objects.delete(`${b}/${k}`) };
const sent: unknown[] = [];
const queue = { send: async (_q: string, m: unknown) => void sent.push(m) } as Queue;
const clock = { now: () => new Date() };
const page = (url: string, markdown: string, engine: string) => ({ url, engine, fetched_at: new Date().toISOString(), status_code: 200, markdown, structured: null });

describe('change baselines of a single-page app', () => {
  it('keeps one baseline per route in the browser, one per page for the http engine', async () => {
    const base = 'https://app.example.test/';
    const browser = new ChangeTracker({ table, blobs, queue, clock }, { tenantId: 'ten_frag', runId: null, jobId: null });
    expect((await browser.track(page(`${base}#/a`, '# Route A\n\nalpha', 'browser'))).status).toBe('new');
    expect((await browser.track(page(`${base}#/b`, '# Route B\n\nbeta', 'browser'))).status).toBe('new');
    // Each route compared with its own baseline: the same, not "changed" against the other.
    expect((await browser.track(page(`${base}#/a`, '# Route A\n\nalpha', 'browser'))).status).toBe('same');
    expect((await browser.track(page(`${base}#/b`, '# Route B\n\nbeta', 'browser'))).status).toBe('same');
    expect((await browser.track(page(`${base}#/a`, '# Route A\n\nalpha', 'auto'))).status).toBe('same');

    const http = new ChangeTracker({ table, blobs, queue, clock }, { tenantId: 'ten_frag_http', runId: null, jobId: null });
    expect((await http.track(page(`${base}#/a`, '# Home', 'http'))).status).toBe('new');
    expect((await http.track(page(`${base}#/b`, '# Home', 'http'))).status).toBe('same');
  });
});
