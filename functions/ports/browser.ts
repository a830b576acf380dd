import type { Browser } from 'puppeteer-core';
/**
 * Headless Chromium. `launch` starts a browser whose traffic goes through `proxyUrl`
 * (the in-process egress proxy). Throws BrowserUnavailableError with install advice when none starts.
 */
export interface BrowserLauncher {
  launch(opts: { proxyUrl: string; userAgent?: string }): Promise<Browser>;
}
