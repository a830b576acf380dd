import { runBudgeted } from '../limits/budget-pool.js';

// A caller's schema is compiled and applied on a budget thread (limits/budget-pool.ts, issue 27);
// ajv is loaded here only where no thread entry exists (then inline, under the static limits).

/** Check a caller's schema: its static limits, then compiled (422 `schema_too_complex`, 400 invalid). */
export const checkSchema = (schema: Record<string, unknown>, owner?: string): Promise<void> =>
  runBudgeted('schema', 'schema.check', { schema }, { owner, inline: async () => (await import('./schema-compile.js')).compileSchema(schema) && undefined });

/** A model's answer against the caller's schema: valid, or the problems. */
export const validateAnswer = (schema: Record<string, unknown>, json: unknown, owner?: string): Promise<{ valid: boolean; problems: string[] }> =>
  runBudgeted('schema', 'schema.validate', { schema, json }, { owner, inline: async () => (await import('./schema-compile.js')).validateAgainst(schema, json) });
