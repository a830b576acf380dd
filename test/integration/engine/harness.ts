import { EgressGuard } from '../../../functions/core/governance/egress-guard.js';
import { RobotsPolicy } from '../../../functions/core/governance/robots.js';
import type { TargetPolicy } from '../../../functions/core/governance/target-policy.js';
import type { HostGate } from '../../../functions/core/governance/politeness.js';
import { LocalChromiumLauncher } from '../../../functions/adapters/local/chromium-launcher.js';
import { BrowserSession } from '../../../functions/core/engine/fetch-browser.js';
import { createEngine, type ChallengePolicy, type Engine, type EngineDeps } from '../../../functions/core/engine/pipeline.js';
import type { RawLogEntry } from '../../../functions/core/engine/types.js';
import type { BrowserLauncher } from '../../../functions/ports/browser.js';
import { executeRunbook, runbookStepsSchema, type RunbookContext } from '../../../functions/core/scrapers/runbook.js';

export const TEST_UA = 'GleanerBot/0.1 (+https://gleaner.invalid; test)';

/** An engine wired like production, with the egress allow list limited to the fixture site. */
export interface Harness {
  engine: Engine;
  guard: EgressGuard;
  robots: RobotsPolicy;
  logs: RawLogEntry[];
  /** Every URL the guard refused (http engine and proxy). */
  refused: string[];
  close(): Promise<void>;
}

/** Build a guard whose only exemption is the fixture's host:port; robots fetched through it. */
export function governance(fixturePort: number, extraAllow: string[] = []) {
  const refused: string[] = [];
  const guard = new EgressGuard({
    allow: [`127.0.0.1:${fixturePort}`, ...extraAllow],
    userAgent: TEST_UA,
    onBlocked: (url) => refused.push(url),
  });
  const robots = new RobotsPolicy({
    userAgent: TEST_UA,
    fetch: async (url) => {
      const res = await guard.fetch(url, { timeoutMs: 10_000 });
      return { status: res.status, body: res.body.toString('utf8') };
    },
  });
  return { guard, robots, refused };
}

export function makeHarness(opts: {
  fixturePort: number;
  policy?: TargetPolicy;
  challengePolicy?: ChallengePolicy;
  launcher?: BrowserLauncher;
  gate?: HostGate;
  /** More host:port pairs the guard lets through (a second loopback "site"). */
  allow?: string[];
  /** The tenant whose pages these are (budgeted work takes turns by owner). */
  owner?: string;
  /** More engine dependencies (secrets, the model, a redactor). */
  deps?: Partial<Pick<EngineDeps, 'resolveSecret' | 'extractJson' | 'redactor'>>;
}): Harness {
  const { guard, robots, refused } = governance(opts.fixturePort, opts.allow);
  const logs: RawLogEntry[] = [];
  const launcher = opts.launcher ?? new LocalChromiumLauncher();
  const engine = createEngine({
    guard,
    robots,
    browser: (signal) => BrowserSession.start({ launcher, guard, userAgent: TEST_UA, signal }),
    gate: opts.gate,
    policy: opts.policy ?? { mode: 'open', domains: [] },
    challengePolicy: opts.challengePolicy ?? 'skip_page',
    userAgent: TEST_UA,
    log: (e) => logs.push(e),
    ...(opts.owner ? { owner: opts.owner } : {}),
    ...opts.deps,
  });
  return {
    engine,
    guard,
    robots,
    logs,
    refused,
    async close() {
      await engine.close();
      await guard.close();
    },
  };
}

/** A ScraperContext that collects items and progress in memory. */
export function collectingContext(engine: Engine, opts: { stopAfterItems?: number } = {}) {
  const items: import('../../../functions/core/scrapers/types.js').ScrapeItem[] = [];
  const progress: { pages_done: number; pages_total: number | null }[] = [];
  return {
    items,
    progress,
    ctx: {
      engine,
      emit: async (item: (typeof items)[number]) => {
        items.push(item);
      },
      shouldStop: () => opts.stopAfterItems !== undefined && items.length >= opts.stopAfterItems,
      progress: (p: { pages_done: number; pages_total: number | null }) => {
        progress.push(p);
      },
    },
  };
}

/**
 * Run runbook `steps` (validated first) on `engine` under an open target policy, with no input
 * and no secrets; `opts` overrides any of that (a step timeout, a signal).
 */
export const runSteps = (engine: Engine, steps: unknown[], opts: Partial<RunbookContext> = {}) =>
  executeRunbook(runbookStepsSchema.parse(steps), {
    engine,
    policy: { mode: 'open', domains: [] },
    input: {},
    resolveSecret: async () => {
      throw new Error('no secrets here');
    },
    ...opts,
  });
