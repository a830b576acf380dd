import type { z } from 'zod';
import { badRequest } from './errors.js';
import { zodIssueDetails } from './zod-details.js';
import { log } from './log.js';

/**
 * Stored records pass the same schema twice: on the way in ({@link checkForStore}) and on the way
 * out ({@link parseStored}). A value that would not read back is refused before it is written, so
 * a tenant cannot save something that later breaks its own reads, the operator CLI or a restart.
 */

/**
 * Validate a value about to be written.
 * @throws AppError 400 `invalid_request` with one detail per problem; nothing is written.
 */
export function checkForStore<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(`The ${where} is not valid`, zodIssueDetails(r.error, where));
  return r.data;
}

/**
 * Parse a record read back from the table. A record that does not parse (written by an older
 * version, or edited by hand) is reported once per read and skipped: `undefined`, never a throw,
 * so one bad record cannot take down a list, another tenant or the process.
 */
export function parseStored<S extends z.ZodType>(schema: S, item: Record<string, unknown>, kind: string): z.output<S> | undefined {
  const r = schema.safeParse(item);
  if (r.success) return r.data;
  log.error('unreadable stored record skipped', {
    kind, pk: item.pk, sk: item.sk,
    problems: r.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`),
  });
  return undefined;
}

/** Parse every record of a page, skipping (and reporting) the unreadable ones. */
export const parseStoredAll = <S extends z.ZodType>(schema: S, items: Record<string, unknown>[], kind: string): z.output<S>[] =>
  items.flatMap((i) => {
    const v = parseStored(schema, i, kind);
    return v === undefined ? [] : [v];
  });
