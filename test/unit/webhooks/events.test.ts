import { describe, expect, it } from 'vitest';
import { jobCompletedPayload, jobCompletedPayloadSchema, runCompletedPayload, runCompletedMessage } from '../../../functions/core/webhooks/events.js';
import { publicBaseUrl, resultUrl } from '../../../functions/core/events/public-url.js';
import type { QueryRecord } from '../../../functions/core/queries/queries.js';

const base: QueryRecord = {
  query_id: 'qry_01jd0000000000000000000000', tenant_id: 'ten_a', prompt: 'acme', sources: ['x'], time_window: null, limit: 10,
  status: 'completed', created_at: '2026-11-22T08:00:00.000Z', started_at: '2026-11-22T08:00:00.100Z', completed_at: '2026-11-22T08:00:03.000Z',
  error: null, job_id: 'job_01jd0000000000000000000000', result_key: 'qry_01jd0000000000000000000000_2026-11-22T08-00-00.000Z.json', job_run_at: '2026-11-22T08:00:00.000Z',
};
const cfg = { publicUrl: 'https://api.example.com/', port: 8787, mode: 'aws' as const };
const now = new Date('2026-11-22T09:00:00.000Z');

describe('job.completed payload (SPEC.md 6)', () => {
  it('carries event, query_id, job_id, status, completed_at and result_url for a completed run', () => {
    const p = jobCompletedPayload(base, cfg, now);
    expect(p).toEqual({
      event: 'job.completed', query_id: base.query_id, job_id: base.job_id, status: 'completed', completed_at: '2026-11-22T08:00:03.000Z',
      result_url: 'https://api.example.com/v1/storage/qry_01jd0000000000000000000000_2026-11-22T08-00-00.000Z.json',
    });
    expect(Object.keys(p)).toEqual(['event', 'query_id', 'job_id', 'status', 'completed_at', 'result_url']);
    expect(jobCompletedPayloadSchema.parse(p)).toEqual(p);
  });

  it('has status failed, the error and no result_url when the run failed', () => {
    const p = jobCompletedPayload({ ...base, status: 'failed', result_key: null, error: 'No source answered. x: down' }, cfg, now);
    expect(p).toMatchObject({ status: 'failed', error: 'No source answered. x: down', result_url: null });
  });

  it('refuses a query that has not finished', () => {
    expect(() => jobCompletedPayload({ ...base, status: 'running' }, cfg, now)).toThrow(/not finished/);
  });

  it('encodes the key as one path segment', () => {
    expect(resultUrl(cfg, 'a/b c.json')).toBe('https://api.example.com/v1/storage/a%2Fb%20c.json');
  });
});

describe('public base URL', () => {
  it('prefers GLEANER_PUBLIC_URL, else the local port, else a relative path', () => {
    expect(publicBaseUrl(cfg)).toBe('https://api.example.com');
    expect(publicBaseUrl({ publicUrl: undefined, port: 8787, mode: 'local' })).toBe('http://127.0.0.1:8787');
    expect(publicBaseUrl({ publicUrl: undefined, port: 0, mode: 'local' })).toBe('');
    expect(publicBaseUrl({ publicUrl: undefined, port: 8787, mode: 'aws' })).toBe('');
    expect(resultUrl({ publicUrl: undefined, port: 0, mode: 'local' }, 'qry_x')).toBe('/v1/storage/qry_x');
  });
});

describe('run.completed', () => {
  const m = runCompletedMessage.parse({ kind: 'run.completed', tenant_id: 'ten_a', run_id: 'run_01jd0000000000000000000000', status: 'succeeded', completed_at: '2026-11-22T08:00:03.000Z' });
  it('builds {event, run_id, status, completed_at, results_url}', () => {
    expect(runCompletedPayload(m, cfg)).toEqual({
      event: 'run.completed', run_id: m.run_id, status: 'succeeded', completed_at: m.completed_at,
      results_url: `https://api.example.com/v1/runs/${m.run_id}/results`,
    });
    expect(runCompletedPayload({ ...m, results_url: 'https://x.example/r' }, cfg).results_url).toBe('https://x.example/r');
  });
  it('validates the message', () => {
    expect(runCompletedMessage.safeParse({ ...m, completed_at: 'yesterday' }).success).toBe(false);
    expect(runCompletedMessage.safeParse({ ...m, webhook_url: null }).success).toBe(true);
  });
});
