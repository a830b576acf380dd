import * as z from 'zod';
import { cssSelector } from './input-fields.js';

// The `actions` of POST /v1/scrape and page-content (API.md "Page actions and freshness"). Kept
// apart from the engine so that API handlers validate them without bundling the browser code;
// engine/scrape-actions.ts runs them through the same interpreter as runbook steps.

/** Most actions one scrape may run. */
export const MAX_ACTIONS = 20;

const secretName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'names are identifiers');

/** One page action, discriminated on `type`. */
export const pageActionSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('wait'),
    /** Milliseconds to wait (at most 10 s); with `selector`, the longest wait for it. */
    ms: z.int().min(0).max(10_000).optional(),
    selector: cssSelector.optional(),
  }),
  z.strictObject({ type: z.literal('click'), selector: cssSelector, all: z.boolean().optional() }),
  z.strictObject({
    type: z.literal('write'),
    selector: cssSelector,
    /** A literal, or `{ secret: name }`: a tenant secret (needs the `secrets:use` scope). */
    text: z.union([z.string().max(10_000), z.strictObject({ secret: secretName })]),
  }),
  z.strictObject({
    type: z.literal('press'),
    key: z.string().regex(/^(?:(?:Control|Shift|Alt|Meta)\+)*(?:[A-Za-z0-9]+|[!-/:-@[-`{-~])$/, 'expected a key name such as Enter, ArrowDown, a or Control+A'),
  }),
  z.strictObject({
    type: z.literal('scroll'),
    direction: z.enum(['down', 'up']).optional(),
    amount: z.union([z.int().min(1).max(100_000), z.literal('bottom')]).optional(),
  }),
  z.strictObject({ type: z.literal('screenshot'), full_page: z.boolean().optional() }),
]);
export type PageAction = z.infer<typeof pageActionSchema>;

/** `actions`: at most {@link MAX_ACTIONS}, run in order in the browser before the page is captured. */
export const pageActionsSchema = z
  .array(pageActionSchema)
  .max(MAX_ACTIONS, `at most ${MAX_ACTIONS} actions`)
  .describe('Browser actions run in order before the page is captured (wait, click, write, press, scroll, screenshot); the engine is then browser');

/** Names of the tenant secrets a list of actions types (running it needs `secrets:use`). */
export function actionSecrets(actions: PageAction[] | undefined): string[] {
  const out = new Set<string>();
  for (const a of actions ?? []) if (a.type === 'write' && typeof a.text === 'object') out.add(a.text.secret);
  return [...out];
}
