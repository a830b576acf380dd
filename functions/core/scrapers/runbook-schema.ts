import * as z from 'zod';
import { fieldsSchema } from '../engine/field-spec.js';
import { cssSelector, httpUrl } from './input-fields.js';
import { contentOptionsShape } from '../content/content-options.js';

const refName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'names are identifiers');

/** A value in a runbook: a literal, a run input (`{input: name}`) or a tenant secret (`{secret: name}`). */
export const valueRefSchema = z.union([
  z.string().max(10_000),
  z.strictObject({ input: refName }),
  z.strictObject({ secret: refName }),
]);
export type ValueRef = z.infer<typeof valueRefSchema>;

const stepTimeout = z.int().min(100).max(120_000);

/** The declarative steps of a runbook (API.md "Runbooks"). Discriminated on `action`. */
export const runbookStepSchema = z.discriminatedUnion('action', [
  z.strictObject({
    action: z.literal('goto'),
    /** Absolute URL, or `{input: name}` naming an input that holds one. */
    url: z.union([httpUrl, z.strictObject({ input: refName })]),
    wait_for: cssSelector.optional(),
  }),
  z.strictObject({
    action: z.literal('click'),
    selector: cssSelector,
    /** true: wait for the navigation the click causes; false: never wait; absent: detect it. */
    navigation: z.boolean().optional(),
  }),
  z.strictObject({ action: z.literal('fill'), selector: cssSelector, value: valueRefSchema }),
  z.strictObject({ action: z.literal('wait_for'), selector: cssSelector, timeout_ms: stepTimeout.optional() }),
  z.strictObject({
    action: z.literal('scroll'),
    times: z.int().min(1).max(50).default(1),
    delay_ms: z.int().min(0).max(5_000).default(250),
  }),
  z.strictObject({ action: z.literal('extract'), fields: fieldsSchema, item_selector: cssSelector.optional() }),
  z.strictObject({
    action: z.literal('paginate'),
    /** Selector of the next-page link or button; the last `extract` step repeats on each page. */
    next: cssSelector,
    max_pages: z.int().min(1).max(50).default(5),
  }),
  z.strictObject({
    /** The current page's content as one item: markdown (content options apply), text, links, metadata. */
    action: z.literal('content'),
    formats: z
      .array(z.enum(['markdown', 'text', 'links', 'metadata']))
      .min(1)
      .max(4)
      .default(['markdown', 'metadata']),
    ...contentOptionsShape,
  }),
  z.strictObject({
    action: z.literal('screenshot'),
    name: z.string().min(1).max(64).optional(),
    full_page: z.boolean().default(false),
  }),
]);
export type RunbookStep = z.infer<typeof runbookStepSchema>;
export type RunbookStepInput = z.input<typeof runbookStepSchema>;

/**
 * A runbook's step list: 1-100 steps, the first a `goto`, every `paginate` after an `extract`.
 * The API validates runbook bodies with this.
 */
export const runbookStepsSchema = z
  .array(runbookStepSchema)
  .min(1)
  .max(100)
  .superRefine((steps, ctx) => {
    if (steps[0] && steps[0].action !== 'goto') {
      ctx.addIssue({ code: 'custom', path: [0, 'action'], message: 'the first step must be goto' });
    }
    let sawExtract = false;
    steps.forEach((s, i) => {
      if (s.action === 'extract') sawExtract = true;
      if (s.action === 'paginate' && !sawExtract) {
        ctx.addIssue({ code: 'custom', path: [i, 'action'], message: 'paginate repeats the previous extract step; add one before it' });
      }
    });
  });

/** Names of the inputs and secrets a step list refers to (for validating a run's input up front). */
export function runbookReferences(steps: RunbookStep[]): { inputs: string[]; secrets: string[] } {
  const inputs = new Set<string>();
  const secrets = new Set<string>();
  for (const s of steps) {
    if (s.action === 'goto' && typeof s.url === 'object') inputs.add(s.url.input);
    if (s.action === 'fill' && typeof s.value === 'object') {
      if ('input' in s.value) inputs.add(s.value.input);
      else secrets.add(s.value.secret);
    }
  }
  return { inputs: [...inputs], secrets: [...secrets] };
}
