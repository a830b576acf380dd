import * as z from 'zod';

/** `?limit=` (1-200, default 50) and `?cursor=` on every list. */
export const pageQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(2048).optional(),
});

export const idParam = (name: string, prefix: string) =>
  z.strictObject({ [name]: z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `expected a ${prefix}_… id`) });

export const errorSchema = z.object({
  code: z.string(),
  message: z.string(),
  request_id: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

/** List envelope. */
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });
