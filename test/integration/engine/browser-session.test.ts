import { describe, expect, it } from 'vitest';
import { BrowserSession } from '../../../functions/core/engine/fetch-browser.js';
import type { Browser, BrowserLauncher, Tab } from '../../../functions/ports/browser.js';
import { governance, TEST_UA } from './harness.js';

/**
 * A browser session's close is bounded: a Chromium that stopped answering (wedged on a loaded
 * machine, a renderer hung) cannot keep its tabs' close pending, and with it the browser's close
 * (which kills the process) and the run that waits for it.
 */
describe('BrowserSession close', () => {
  it('closes the browser even when a tab never finishes closing', async () => {
    // Prepare: a browser whose tabs never answer a close (as over a CDP connection nobody serves).
    let browserClosed = false;
    const stuckTab = { close: () => new Promise<void>(() => {}), onClose: () => {}, isClosed: () => false } as unknown as Tab;
    const browser = {
      pid: undefined,
      newTab: async () => stuckTab,
      newFetchTab: async () => stuckTab,
      tabCount: async () => 2,
      purgeMemory: async () => {},
      close: async () => {
        browserClosed = true;
      },
    } as unknown as Browser;
    const launcher: BrowserLauncher = { launch: async () => browser };
    const { guard } = governance(9);
    const session = await BrowserSession.start({ launcher, guard, userAgent: TEST_UA });
    await session.newTab();
    // Act (the test's own timeout is the bound: without one, this never resolves)
    await session.close();
    await guard.close();
    // Assess
    expect(browserClosed).toBe(true);
  });
});
