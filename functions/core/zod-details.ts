import type { z } from 'zod';
import type { ErrorDetail } from './errors.js';

/** zod issues as `{path, message}` details, paths prefixed with where the value came from. */
export const zodIssueDetails = (error: z.ZodError, where: string): ErrorDetail[] =>
  error.issues.slice(0, 50).map((i) => ({
    path: [where, ...i.path.map(String)].join('.'),
    message: i.code === 'unrecognized_keys' ? `Unknown field(s): ${(i as { keys: string[] }).keys.join(', ')}` : i.message,
  }));
