import * as z from 'zod';
import { badRequest } from '../errors.js';
import { runbookReferences, runbookStepSchema, type RunbookStep } from '../scrapers/runbook-schema.js';
import { httpUrl } from '../scrapers/input-fields.js';
import { refineSelectorComplexity } from '../limits/selector-limits.js';

// The request side of Studio's page preview and selector count (API handlers): kept apart from
// page-preview.ts (the worker side) so validating a request never bundles the engine.
/**
 * `POST /dashboard/api/studio/preview` body: the page to show, and optionally the steps that lead
 * to the state to pick from (the steps before the one being edited). `url` replaces the first
 * goto's URL; only steps that move or change the page run (goto, click, fill, wait_for, scroll).
 */
export const previewRequestSchema = z.strictObject({
  url: httpUrl,
  steps: z.array(runbookStepSchema).max(100).optional(),
  input: z.record(z.string(), z.union([z.string().max(10_000), z.number(), z.boolean()])).default({}),
});
export type PreviewRequest = z.infer<typeof previewRequestSchema>;

const MOVES = new Set(['goto', 'click', 'fill', 'wait_for', 'scroll']);

/** The steps a preview runs: the URL first, then the page-moving steps. 400 when one fills a secret. */
export function previewSteps(req: PreviewRequest): RunbookStep[] {
  const given = (req.steps ?? []).filter((s) => MOVES.has(s.action));
  if (runbookReferences(given).secrets.length) {
    throw badRequest('The preview never fills secrets (its screenshot would show them); preview the page before that step');
  }
  const first = given[0]?.action === 'goto' ? given.shift() : undefined;
  const waitFor = first?.action === 'goto' ? first.wait_for : undefined;
  return [{ action: 'goto', url: req.url, ...(waitFor ? { wait_for: waitFor } : {}) }, ...given];
}

/** Largest HTML snapshot a preview returns (the match endpoint takes it back; bodies max 1 MiB). */
export const MAX_SNAPSHOT_BYTES = 900 * 1024;

/** `POST /dashboard/api/studio/match` body: a selector to count on a preview's HTML snapshot. */
export const matchRequestSchema = z.strictObject({
  html: z.string().max(MAX_SNAPSHOT_BYTES + 1024),
  selector: z.string().trim().min(1).max(500).superRefine(refineSelectorComplexity),
});

