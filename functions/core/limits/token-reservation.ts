import { ConditionFailedError } from '../errors.js';
import { keys, monthOf } from '../table-keys.js';
import type { Key, Table } from '../../ports/table.js';

/**
 * Model tokens are reserved before each call and settled after it (issue 27): the quota cannot be
 * overrun by concurrent items or by a repair turn, because a call starts only once the most it can
 * cost is held against the cap.
 *
 * On the month's usage item (one item: a single-item conditional write, no transaction),
 * `model_tokens` counts what was used and `model_tokens_held` counts what was used plus what is
 * reserved by calls in flight. A reservation adds to `model_tokens_held` only when the held total
 * leaves room for it; settling adds the real count to `model_tokens` and swaps the reservation for
 * it in `model_tokens_held`, so `model_tokens_held` is always what was used plus what is held.
 * Usage written before `model_tokens_held` existed (a month begun by an older release, or by an
 * operator's adjustment) is carried into it before the first reservation: a condition on
 * `model_tokens` alone held each reservation against the past usage but not against each other,
 * so concurrent items could all pass it.
 */

/** Reserve `tokens` for one call when they fit under `cap`; false when they do not (no call may be made). */
export async function reserveModelTokens(table: Table, tenantId: string, cap: number | null, tokens: number, now: Date): Promise<boolean> {
  const key = keys.usage(tenantId, monthOf(now));
  if (cap != null && cap < tokens) return false;
  // Held is the running total once it exists; before it does, nothing may have been used either.
  const condition = cap == null
    ? { expression: 'attribute_exists(model_tokens_held) OR attribute_not_exists(model_tokens)' }
    : {
        expression:
          '(attribute_not_exists(model_tokens_held) AND attribute_not_exists(model_tokens)) OR (model_tokens_held <= :limit AND (attribute_not_exists(model_tokens) OR model_tokens <= :limit))',
        values: { ':limit': cap - tokens },
      };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await table.update(key, { add: { model_tokens_held: tokens }, condition });
      return true;
    } catch (e) {
      if (!(e instanceof ConditionFailedError)) throw e;
    }
    if (attempt > 0 || !(await carryUsageIntoHeld(table, key))) return false;
  }
  return false;
}

/** Start `model_tokens_held` at `model_tokens` when only the latter exists; true when it was (or just got) carried. */
async function carryUsageIntoHeld(table: Table, key: Key): Promise<boolean> {
  const item = await table.get(key, { consistent: true });
  if (!item || item.model_tokens_held !== undefined || item.model_tokens === undefined) return false;
  try {
    await table.update(key, {
      add: { model_tokens_held: Number(item.model_tokens) },
      condition: { expression: 'attribute_not_exists(model_tokens_held) AND model_tokens = :used', values: { ':used': item.model_tokens } },
    });
  } catch (e) {
    if (!(e instanceof ConditionFailedError)) throw e;
    // Another call carried it (or settled) first: held exists now, which is all the retry needs.
  }
  return true;
}

/** Settle a call: `used` tokens are metered, the `reserved` ones released. Unconditional (the call was made). */
export async function settleModelTokens(table: Table, tenantId: string, reserved: number, used: number, now: Date): Promise<void> {
  const add: Record<string, number> = {};
  if (used > 0) add.model_tokens = used;
  if (used - reserved !== 0) add.model_tokens_held = used - reserved;
  if (!Object.keys(add).length) return;
  await table.update(keys.usage(tenantId, monthOf(now)), { add });
}
