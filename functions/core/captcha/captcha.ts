import * as z from 'zod';
import { keys } from '../table-keys.js';
import { newId } from '../ids.js';
import type { Table } from '../../ports/table.js';
import type { ChallengePolicy } from '../engine/pipeline.js';
import { log } from '../log.js';
import { listFiltered } from '../filtered-list.js';

export const captchaPolicySchema = z.strictObject({ on_challenge: z.enum(['stop_run', 'skip_page']) });
export const CAPTCHA_KINDS = ['recaptcha', 'hcaptcha', 'turnstile', 'cloudflare_challenge', 'unknown'] as const;

export async function getCaptchaPolicy(table: Table, tenantId: string): Promise<{ on_challenge: ChallengePolicy }> {
  const i = await table.get(keys.record(tenantId, 'SET', 'captcha'));
  return { on_challenge: (i?.on_challenge as ChallengePolicy) ?? 'stop_run' };
}

export async function putCaptchaPolicy(table: Table, tenantId: string, p: z.infer<typeof captchaPolicySchema>) {
  await table.put({ ...keys.record(tenantId, 'SET', 'captcha'), ...p });
  return p;
}

export interface Encounter {
  id: string;
  run_id: string;
  url: string;
  kind: (typeof CAPTCHA_KINDS)[number];
  detected_at: string;
  action: 'stopped_run' | 'skipped_page';
  reason: string;
}

/** Record that a run met a CAPTCHA or challenge. Nothing ever solves one. */
export async function recordEncounter(table: Table, tenantId: string, e: Omit<Encounter, 'id'>): Promise<Encounter> {
  const kind = (CAPTCHA_KINDS as readonly string[]).includes(e.kind) ? e.kind : 'unknown';
  const rec: Encounter = { id: newId('cap'), ...e, kind };
  await table.put({ ...keys.record(tenantId, 'CAP', rec.id), ...rec });
  return rec;
}

/**
 * The engine's `onChallenge` for one run: records each encounter with what the tenant's policy
 * made of it. Recording never holds up or fails the run; a failed write is logged.
 */
export function encounterRecorder(table: Table, tenantId: string, runId: string, policy: ChallengePolicy, now: () => Date) {
  return (c: { url: string; kind: string; reason: string }) => {
    // recordEncounter files a kind it does not know as 'unknown'.
    recordEncounter(table, tenantId, {
      run_id: runId, url: c.url, kind: c.kind as Encounter['kind'], detected_at: now().toISOString(), reason: c.reason,
      action: policy === 'stop_run' ? 'stopped_run' : 'skipped_page',
    }).catch((err) => log.error('encounter record failed', { err }));
  };
}

export function listEncounters(table: Table, tenantId: string, q: { limit: number; cursor?: string; run_id?: string }) {
  return listFiltered(table, { pk: keys.tenantPk(tenantId), skBeginsWith: 'CAP#', descending: true }, q, (it) => {
    const { pk: _p, sk: _s, ...rest } = it;
    return !q.run_id || rest.run_id === q.run_id ? (rest as unknown as Encounter) : undefined;
  });
}
