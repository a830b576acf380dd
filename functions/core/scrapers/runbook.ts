import { AppError, badRequest } from '../errors.js';
import type { FieldSpec } from '../engine/extract.js';
import type { Engine, NavigationResult } from '../engine/pipeline.js';
import { absoluteHttpUrl } from '../engine/parse.js';
import type { TargetPolicy } from '../governance/target-policy.js';
import type { Tab } from '../../ports/browser.js';
import { ActionFailure, PageActions } from '../engine/page-actions.js';
import { hasTenantSelectors, shapePage, type ShapeSpec } from '../engine/shape-page.js';
import type { BrowserSession } from '../engine/fetch-browser.js';
import { runbookStepSchema, runbookStepsSchema, type RunbookStep, type ValueRef } from './runbook-schema.js';
import { SecretRedactor } from './secret-redactor.js';
import { emptyFieldWarnings } from './runbook-warnings.js';
import { extractRecords, type ExtractRecordsInput } from './extract-records.js';
import { runBudgeted } from '../limits/budget-pool.js';
import type { ScrapeItem } from './types.js';

export { runbookStepSchema, runbookStepsSchema, runbookReferences, valueRefSchema } from './runbook-schema.js';
export type { RunbookStep, RunbookStepInput, ValueRef } from './runbook-schema.js';

/** What the executor needs from its caller. */
export interface RunbookContext {
  engine: Engine;
  /** The tenant's target policy: secrets are filled only on allowlisted hosts. */
  policy: TargetPolicy;
  /** The run's input (`{input: name}` references). */
  input: Record<string, unknown>;
  /**
   * Resolve a tenant secret by name (decrypts it) with the domains it is bound to. It is filled
   * only on those domains; its value never reaches items, logs or screenshots.
   */
  resolveSecret: (name: string) => Promise<{ value: string; domains: string[] }>;
  /** Masks secret values in everything the runbook returns (shared with the run's raw log). */
  redactor?: SecretRedactor;
  /** Called for each item as it is extracted (run results); items are also returned. */
  emit?: (item: ScrapeItem) => Promise<void>;
  /** Checked between steps (cancel, limits). */
  shouldStop?: () => boolean;
  /**
   * Aborted when the run must end now (cancel, max_runtime, deadline, shutdown): the step in
   * progress is abandoned at once (its tab is closed, so whatever it awaited fails fast) and the
   * runbook ends as `stopped`.
   */
  signal?: AbortSignal;
  /** Default per-step timeout in ms (default 30 s). */
  stepTimeoutMs?: number;
  /**
   * Called with the tab after the last step when every step succeeded, before the tab closes
   * (Studio's page preview reads the page the steps led to). Not called on a secret's page.
   */
  inspect?: (tab: Tab) => Promise<void>;
}

/** One line of the step log returned by `POST /v1/runbooks/{id}/test`. Never holds secret values. */
export interface RunbookStepLog {
  index: number;
  action: RunbookStep['action'];
  ok: boolean;
  ms: number;
  /** Page URL after the step. */
  url: string | null;
  detail?: string;
  error?: { code: string; message: string };
  /** What the step found nothing for (an extract's empty fields); the step still succeeded. */
  warnings?: string[];
}

/** A screenshot taken by a `screenshot` step. */
export interface RunbookScreenshot {
  name: string;
  url: string;
  /** base64 PNG */
  png: string;
}

/** Result of {@link executeRunbook}. `blocked` = stopped at a challenge; `stopped` = cancelled. */
export interface RunbookResult {
  status: 'succeeded' | 'failed' | 'blocked' | 'stopped';
  items: ScrapeItem[];
  log: RunbookStepLog[];
  screenshots: RunbookScreenshot[];
  pages_done: number;
  error: { code: string; message: string } | null;
}

/** A step failed in a way the log should explain; ends the runbook as `failed`. */
class StepFailure extends Error {
  constructor(readonly code: string, message: string) {
    super(message);
  }
}

/** The run's signal was aborted: the runbook ends as `stopped`. */
class RunbookStopped extends Error {
  readonly code = 'stopped';
  constructor() {
    super('The runbook was stopped (cancelled, out of time, or the service is shutting down)');
  }
}

/** Ends the runbook at a challenge (status `blocked`) or a robots rule. */
class StepHalt extends Error {
  constructor(readonly status: 'blocked' | 'failed', readonly code: string, message: string) {
    super(message);
  }
}


/**
 * Run a runbook's declarative steps on one browser tab of the run's session. Every navigation
 * (goto, navigating clicks, pagination) goes through the engine's governance: target policy,
 * egress proxy, robots, challenge detection (a challenge ends the runbook as `blocked`, never
 * solved). `fill` with a secret is refused unless the page's host is allowlisted in the tenant's
 * target policy, whatever its mode, and is one of the domains the secret is bound to. After a
 * secret fill, `screenshot` and `extract` are refused on that page (document); secret values are
 * masked in items, the step log and error messages. An `extract` step's selectors are matched
 * under the selector budget (limits/budget-pool.ts), as the engine's tenant, stopped at the step
 * timeout (422 `selector_too_complex`). Stops at the first failing step; ends as `stopped` at
 * once when `signal` aborts.
 *
 * @param steps validated with {@link runbookStepsSchema} (re-validated here)
 */
export async function executeRunbook(steps: RunbookStep[], ctx: RunbookContext): Promise<RunbookResult> {
  const parsed = runbookStepsSchema.safeParse(steps);
  if (!parsed.success) {
    throw badRequest(
      'Invalid runbook steps',
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }
  const result: RunbookResult = { status: 'succeeded', items: [], log: [], screenshots: [], pages_done: 0, error: null };
  const timeout = ctx.stepTimeoutMs ?? 30_000;
  const signal = ctx.signal;
  if (signal?.aborted) return { ...result, status: 'stopped' };
  // One promise that rejects on abort; the browser's start and every step race it, and the tab is
  // closed so the step's own awaits (navigation, selector waits, locators) reject instead of
  // running to their timeouts.
  let stopStep: (err: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stopStep = reject));
  stopped.catch(() => {});
  const open: { tab?: Tab } = {};
  const onAbort = () => {
    stopStep(new RunbookStopped());
    void open.tab?.close().catch(() => {});
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  // A browser still starting when the run is stopped (its launch is given up by the engine's close)
  // ends the runbook as stopped, not failed, and without waiting for the launch.
  const opening = ctx.engine.browserSession().then((session) => session.newTab().then((t) => ({ session, tab: t })));
  let opened: { session: BrowserSession; tab: Tab };
  try {
    opened = await Promise.race([opening, stopped]);
  } catch (err) {
    signal?.removeEventListener('abort', onAbort);
    void opening.then((o) => o.tab.close()).catch(() => {});
    if (signal?.aborted) return { ...result, status: 'stopped' };
    throw err;
  }
  const { session, tab } = opened;
  open.tab = tab;
  if (signal?.aborted) onAbort();
  let lastExtract: Extract<RunbookStep, { action: 'extract' }> | null = null;
  let status = 0;

  // The run's redactor, else the engine's: either way the engine's one learns every secret too, so
  // its raw log and errors are masked like the runbook's items and step log.
  const redact = ctx.redactor ?? ctx.engine.redactor ?? new SecretRedactor();
  // Every interaction goes through the one page-action interpreter (engine/page-actions.ts),
  // shared with the actions of a scrape; a navigation it causes is a page of the runbook.
  const actions = new PageActions({
    tab,
    session,
    timeoutMs: timeout,
    policy: ctx.policy,
    resolveSecret: ctx.resolveSecret,
    onSecret: (v) => {
      redact.add(v);
      if (ctx.engine.redactor && ctx.engine.redactor !== redact) ctx.engine.redactor.add(v);
    },
    onNavigation: async (before, response) => settle(await ctx.engine.observeNavigation(tab, before, response)),
    // Screenshots, extract and content see the page as people do (overlays left out, shadow
    // roots and same-site frames in), without changing it for the steps that follow.
    beforeScreenshot: () => session.hideOverlaysFor(tab),
    afterScreenshot: () => session.showOverlays(tab),
  });
  const refuseOnSecretPage = (what: string) => actions.refuseOnSecretPage(what);

  const emit = async (items: Record<string, unknown>[]) => {
    for (const raw of items) {
      const data = redact.deep(raw);
      const item: ScrapeItem = { url: redact.text(tab.url()), fetched_at: new Date().toISOString(), status_code: status, data };
      result.items.push(item);
      await ctx.emit?.(item);
    }
  };

  const settle = (nav: NavigationResult) => {
    result.pages_done++;
    if (nav.skipped) throw new StepHalt('failed', 'robots_disallowed', `robots.txt disallows ${nav.url}`);
    if (nav.blocked) {
      throw new StepHalt('blocked', 'challenge', `Challenge at ${nav.final_url}: ${nav.blocked.kind} (${nav.blocked.reason})`);
    }
    status = nav.status_code;
  };

  const goto = async (url: string, waitFor?: string) => {
    settle(await ctx.engine.navigatePage(tab, url, { timeoutMs: timeout, waitFor }));
  };

  /** Click; wait for (and govern) the navigation it causes, if any. */
  const click = (selector: string, navigation: boolean | undefined): Promise<string> => actions.click(selector, { navigation });

  const resolveValue = async (value: ValueRef): Promise<{ value: string; shown: string }> => {
    if (typeof value === 'string') return { value, shown: JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value) };
    if ('input' in value) {
      const v = ctx.input[value.input];
      if (v === undefined || v === null || typeof v === 'object') {
        throw new StepFailure('invalid_request', `Input ${value.input} is missing or not a scalar`);
      }
      return { value: String(v), shown: `input:${value.input}` };
    }
    return { value: await actions.secret(value.secret), shown: `secret:${value.secret}` };
  };

  const extractNow = async (step: Extract<RunbookStep, { action: 'extract' }>) => {
    await refuseOnSecretPage('extract');
    const html = await session.view(tab, ctx.policy);
    const input: ExtractRecordsInput = { html, url: tab.url(), fields: step.fields as Record<string, FieldSpec>, markedOverlays: true, ...(step.item_selector ? { itemSelector: step.item_selector } : {}) };
    // The tenant's selectors are matched on a budget thread, in the tenant's turn, like a scrape's
    // extract.fields: a hostile one on a hostile page ends at the step's timeout as 422
    // selector_too_complex instead of holding this thread (and every other tenant's work).
    const { records } = await runBudgeted('selector', 'records.extract', input, { deadlineMs: Math.max(1_000, timeout), owner: ctx.engine.owner, inline: () => extractRecords(input) });
    await emit(records);
    return records.length;
  };

  /** `content`: the current page as one item, made like page-content's (content options apply). */
  const contentNow = async (step: Extract<RunbookStep, { action: 'content' }>) => {
    await refuseOnSecretPage('content');
    const f = new Set(step.formats);
    const html = await session.view(tab, ctx.policy);
    const spec: ShapeSpec = {
      url: tab.url(),
      formats: [...f],
      decideAuto: false,
      markedOverlays: true,
      onlyMainContent: step.only_main_content ?? true,
      ...(step.include_tags?.length ? { includeTags: step.include_tags } : {}),
      ...(step.exclude_tags?.length ? { excludeTags: step.exclude_tags } : {}),
    };
    // The tenant's include/exclude tags are matched on a budget thread, as a scrape's are
    // (engine/pipeline.ts parseAndShape): a hostile one ends the step as 422 selector_too_complex.
    const shaped = hasTenantSelectors(spec)
      ? await runBudgeted('selector', 'page.shape', { html, spec }, { deadlineMs: Math.max(1_000, timeout), owner: ctx.engine.owner, inline: () => shapePage(html, spec) })
      : shapePage(html, spec);
    const parsed = shaped.parsed!;
    const data: Record<string, unknown> = { title: parsed.title, content_type: 'text/html' };
    if (f.has('markdown')) data.markdown = parsed.markdown;
    if (f.has('text')) data.text = parsed.text;
    if (f.has('links')) data.links = parsed.links;
    if (f.has('metadata')) data.metadata = parsed.metadata;
    await emit([data]);
    return '1 item';
  };

  const run = async (step: RunbookStep): Promise<string | undefined> => {
    switch (step.action) {
      case 'goto': {
        const raw = typeof step.url === 'string' ? step.url : (await resolveValue(step.url)).value;
        const url = absoluteHttpUrl(raw, /^https?:/.test(tab.url()) ? tab.url() : raw);
        if (!url) throw new StepFailure('invalid_request', 'goto needs an http(s) URL');
        await goto(url, step.wait_for);
        return `status ${status}`;
      }
      case 'click':
        return click(step.selector, step.navigation);
      case 'fill': {
        const { value, shown } = await resolveValue(step.value);
        await tab.fill(step.selector, value, { timeoutMs: timeout });
        return `filled ${step.selector} with ${shown}`;
      }
      case 'wait_for':
        await actions.wait({ selector: step.selector, timeoutMs: step.timeout_ms ?? timeout });
        return undefined;
      case 'scroll':
        return actions.scroll({ times: step.times, delayMs: step.delay_ms });
      case 'extract': {
        lastExtract = step;
        const before = result.items.length;
        const n = await extractNow(step);
        const warnings = emptyFieldWarnings(step, result.items.slice(before).map((i) => i.data));
        if (warnings.length) result.log[result.log.length - 1].warnings = warnings;
        return `${n} item(s)`;
      }
      case 'paginate': {
        if (!lastExtract) throw new StepFailure('invalid_request', 'paginate needs a previous extract step');
        let pages = 1;
        let extracted = 0;
        const seen = new Set([tab.url()]);
        while (pages < step.max_pages) {
          if (ctx.shouldStop?.()) break;
          const href = await tab.linkHref(step.next);
          if (href === undefined) break;
          if (href && /^https?:/i.test(href)) {
            if (seen.has(href)) break;
            seen.add(href);
            await goto(href);
          } else {
            await click(step.next, true);
          }
          pages++;
          extracted += await extractNow(lastExtract);
        }
        return `${pages} page(s), ${extracted} more item(s)`;
      }
      case 'content':
        return contentNow(step);
      case 'screenshot': {
        const png = await actions.screenshot(step.full_page);
        const name = step.name ?? `screenshot-${result.screenshots.length + 1}`;
        result.screenshots.push({ name, url: redact.text(tab.url()), png });
        return name;
      }
    }
  };

  try {
    for (const [index, step] of parsed.data.entries()) {
      if (ctx.shouldStop?.() || signal?.aborted) {
        result.status = 'stopped';
        break;
      }
      const t0 = performance.now();
      const entry: RunbookStepLog = { index, action: step.action, ok: true, ms: 0, url: null };
      result.log.push(entry);
      try {
        const running = run(step);
        running.catch(() => {}); // abandoned on abort: its rejection (closed tab) is expected
        const detail = await Promise.race([running, stopped]);
        if (detail) entry.detail = redact.text(detail);
      } catch (err) {
        entry.ok = false;
        const e = describe(err);
        e.message = redact.text(e.message);
        entry.error = e;
        result.error = e;
        result.status = err instanceof StepHalt ? err.status : signal?.aborted ? 'stopped' : 'failed';
        break;
      } finally {
        entry.ms = Math.round(performance.now() - t0);
        entry.url = !tab.isClosed() && /^https?:/.test(tab.url()) ? redact.text(tab.url()) : null;
      }
    }
    if (ctx.inspect && result.status === 'succeeded' && !signal?.aborted) {
      await refuseOnSecretPage('inspecting the page');
      await Promise.race([ctx.inspect(tab), stopped]);
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    await tab.close().catch(() => {});
  }
  return result;
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof StepFailure || err instanceof StepHalt || err instanceof RunbookStopped || err instanceof ActionFailure) return { code: err.code, message: err.message };
  if (err instanceof AppError) return { code: err.code, message: err.message };
  const e = err as Error;
  if (e?.name === 'TimeoutError') return { code: 'timeout', message: e.message.split('\n')[0] };
  return { code: 'step_failed', message: (e?.message ?? String(err)).split('\n')[0] };
}

/** Parse one step (for editors that validate step by step). */
export const parseRunbookStep = (step: unknown) => runbookStepSchema.parse(step);
