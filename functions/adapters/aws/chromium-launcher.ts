import chromium from '@sparticuz/chromium';
import { AppError } from '../../core/errors.js';
import { chromiumProxyArgs } from '../../core/governance/egress-proxy.js';
import type { Browser, BrowserLauncher, LaunchOptions } from '../../ports/browser.js';
import { launchStopped, launchWithProfile } from '../browser/chromium-profile.js';

/**
 * Lambda {@link BrowserLauncher}: the @sparticuz/chromium headless shell (unpacked to /tmp on
 * first use, reused while the container is warm) with its recommended flags, plus the egress
 * proxy and the no-UDP flags and profile of every Gleaner browser (`launchWithProfile`), so every
 * request is an HTTP(S) request the proxy can vet. The profile dir is removed after the browser
 * process exited; a warm container does not accumulate them in /tmp.
 */
export class LambdaChromiumLauncher implements BrowserLauncher {
  async launch(opts: LaunchOptions): Promise<Browser> {
    try {
      chromium.setGraphicsMode = false;
      return await launchWithProfile({
        executablePath: await chromium.executablePath(),
        args: [...chromium.args, ...chromiumProxyArgs(opts.proxyUrl), ...(opts.userAgent ? [`--user-agent=${opts.userAgent}`] : [])],
        headless: 'shell',
        timeoutMs: 30_000,
        signal: opts.signal,
      });
    } catch (err) {
      launchStopped(opts.signal);
      throw new AppError(503, 'browser_unavailable', `Chromium could not be started on Lambda: ${(err as Error).message.split('\n')[0]}`);
    }
  }
}
