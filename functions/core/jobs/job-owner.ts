import * as z from 'zod';
import { AppError } from '../errors.js';
import { findApiKeyById, isUsable } from '../tenancy/api-keys.js';
import type { Table } from '../../ports/table.js';

// Who stands behind a job (issue 37 finding 6). `jobs:write` alone used to be enough to create
// and run a run job, whose runs and their results (job.completed, page.changed) a key without
// `runs:write` and `runs:read` could not have had. A job now needs the scopes of what it runs,
// records the credential that created (or last resumed) it with its scopes, and stops when that
// credential no longer stands: revoked, expired, or rotated out once its grace period ended.

export const jobOwnerSchema = z.object({
  /** `key`: an API key (`id` its key_id); `user`: a console user (`id` its user id), who holds every scope. */
  type: z.enum(['key', 'user']),
  id: z.string(),
  scopes: z.array(z.string()),
});
export type JobOwner = z.infer<typeof jobOwnerSchema>;

/** The caller as a job records it. */
export interface JobPrincipal {
  type: 'key' | 'user';
  id: string;
}

/**
 * What a job of each kind needs besides `jobs:write`: to start its runs (or queries) and to receive
 * what they produce, since its webhook and the tenant's events carry the results.
 */
export const jobScopes = (kind: 'query' | 'run'): readonly string[] => (kind === 'run' ? ['runs:write', 'runs:read'] : ['queries:write', 'queries:read']);

const missingScopes = (kind: 'query' | 'run', held: readonly string[]) => (held.includes('*') ? [] : jobScopes(kind).filter((s) => !held.includes(s)));

/** 403 `forbidden` naming the scopes a caller lacks to create, change or run a job of this kind. */
export function assertJobScopes(kind: 'query' | 'run', held: readonly string[]): void {
  const missing = missingScopes(kind, held);
  if (!missing.length) return;
  const what = kind === 'run' ? 'A run job starts runs and delivers their results' : 'A query job submits queries and delivers their results';
  throw new AppError(403, 'forbidden', `${what}, so it needs ${jobScopes(kind).join(' and ')} besides jobs:write; this API key lacks ${missing.join(', ')}`,
    missing.map((m) => ({ path: 'scope', message: m })));
}

export const ownerOf = (p: JobPrincipal, scopes: readonly string[]): JobOwner => ({ type: p.type, id: p.id, scopes: [...scopes] });

/**
 * Whether the job's owner still stands, checked when a schedule fires: null when it does, else why
 * not (shown on the job as its `status_reason`). A job stored before owners were recorded has
 * none and keeps firing; console users hold every scope for as long as they exist.
 */
export async function ownerLapse(table: Table, tenantId: string, kind: 'query' | 'run', owner: JobOwner | null, now: Date): Promise<string | null> {
  if (!owner || owner.type === 'user') return null;
  const key = await findApiKeyById(table, owner.id);
  const stopped = `stopped: the API key ${owner.id} that created or last resumed this job`;
  if (!key || key.tenant_id !== tenantId) return `${stopped} no longer exists; resume it with a key that holds ${jobScopes(kind).join(' and ')}`;
  if (key.revoked_at) return `${stopped} was revoked at ${key.revoked_at}; resume it (PATCH status "active") with a key that holds ${jobScopes(kind).join(' and ')}`;
  if (!isUsable(key, now))
    return key.rotated_to
      ? `${stopped} was rotated to ${key.rotated_to} and expired at ${key.expires_at_iso}; resume it (PATCH status "active") with the new key`
      : `${stopped} expired at ${key.expires_at_iso}; resume it (PATCH status "active") with a key that holds ${jobScopes(kind).join(' and ')}`;
  const missing = missingScopes(kind, key.scopes);
  if (missing.length) return `${stopped} no longer holds ${missing.join(', ')}`;
  return null;
}
