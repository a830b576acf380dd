import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser } from 'puppeteer-core';
import { AppError } from '../../core/errors.js';
import { chromiumProxyArgs } from '../../core/governance/egress-proxy.js';
import type { BrowserLauncher } from '../../ports/browser.js';

/**
 * Lambda {@link BrowserLauncher}: the @sparticuz/chromium headless shell (unpacked to /tmp on
 * first use, reused while the container is warm) with its recommended flags, plus the egress
 * proxy and `--disable-quic` so every request is an HTTP(S) request the proxy can vet.
 */
export class LambdaChromiumLauncher implements BrowserLauncher {
  async launch(opts: { proxyUrl: string; userAgent?: string }): Promise<Browser> {
    const userDataDir = await mkdtemp(join(tmpdir(), 'gleaner-chromium-'));
    try {
      chromium.setGraphicsMode = false;
      const browser = await puppeteer.launch({
        executablePath: await chromium.executablePath(),
        args: [
          ...chromium.args,
          '--disable-quic',
          '--disable-background-networking',
          '--disable-component-update',
          ...chromiumProxyArgs(opts.proxyUrl),
          ...(opts.userAgent ? [`--user-agent=${opts.userAgent}`] : []),
        ],
        headless: 'shell',
        userDataDir,
        defaultViewport: { width: 1280, height: 900 },
        timeout: 30_000,
        protocolTimeout: 60_000,
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
      browser.once('disconnected', () => void rm(userDataDir, { recursive: true, force: true }).catch(() => {}));
      return browser;
    } catch (err) {
      await rm(userDataDir, { recursive: true, force: true }).catch(() => {});
      throw new AppError(503, 'browser_unavailable', `Chromium could not be started on Lambda: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}
