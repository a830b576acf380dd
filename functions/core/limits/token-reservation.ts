import { ConditionFailedError } from '../errors.js';
import { keys, monthOf } from '../table-keys.js';
import type { Table } from '../../ports/table.js';

/**
 * Model tokens are reserved before each call and settled after it (issue 27): the quota cannot be
 * overrun by concurrent items or by a repair turn, because a call starts only once the most it can
 * cost is held against the cap.
 *
 * On the month's usage item (one item: a single-item conditional write, no transaction),
 * `model_tokens` counts what was used and `model_tokens_held` counts what was used plus what is
 * reserved by calls in flight. A reservation adds to `model_tokens_held` only when the held total
 * leaves room for it; settling adds the real count to `model_tokens` and swaps the reservation for
 * it in `model_tokens_held`. Usage written before `model_tokens_held` existed is still respected
 * (the condition checks `model_tokens` too).
 */

/** Reserve `tokens` for one call when they fit under `cap`; false when they do not (no call may be made). */
export async function reserveModelTokens(table: Table, tenantId: string, cap: number | null, tokens: number, now: Date): Promise<boolean> {
  const limit = cap == null ? null : cap - tokens;
  if (limit != null && limit < 0) return false;
  try {
    await table.update(keys.usage(tenantId, monthOf(now)), {
      add: { model_tokens_held: tokens },
      ...(limit == null
        ? {}
        : {
            condition: {
              expression: '(attribute_not_exists(model_tokens) OR model_tokens <= :limit) AND (attribute_not_exists(model_tokens_held) OR model_tokens_held <= :limit)',
              values: { ':limit': limit },
            },
          }),
    });
    return true;
  } catch (e) {
    if (e instanceof ConditionFailedError) return false;
    throw e;
  }
}

/** Settle a call: `used` tokens are metered, the `reserved` ones released. Unconditional (the call was made). */
export async function settleModelTokens(table: Table, tenantId: string, reserved: number, used: number, now: Date): Promise<void> {
  const add: Record<string, number> = {};
  if (used > 0) add.model_tokens = used;
  if (used - reserved !== 0) add.model_tokens_held = used - reserved;
  if (!Object.keys(add).length) return;
  await table.update(keys.usage(tenantId, monthOf(now)), { add });
}
