import { existsSync } from 'node:fs';
import { LocalChromiumLauncher, SYSTEM_CHROMIUM_PATHS } from '../../functions/adapters/local/chromium-launcher.js';
import { config } from '../../functions/config.js';

/** One Chromium build the browser suites run on. */
export interface BrowserBinary {
  name: 'system' | 'sparticuz';
  launcher: () => LocalChromiumLauncher;
}

const systemPresent = (): boolean => {
  try {
    if (config().chromiumPath && existsSync(config().chromiumPath!)) return true;
  } catch {
    // an unrelated bad setting: look at the well-known paths only
  }
  return SYSTEM_CHROMIUM_PATHS.some((p) => existsSync(p));
};

const forced = (): 'auto' | 'system' | 'sparticuz' => {
  try {
    return config().chromiumBinary;
  } catch {
    return 'auto';
  }
};

/**
 * The binaries every browser behaviour is proved on (`describe.each(BROWSER_BINARIES)`): the
 * @sparticuz/chromium build deployed to Lambda always (it aborts navigations to documents it
 * would download, where a system Chromium shows a viewer), and a system Chromium when one is
 * installed. GLEANER_CHROMIUM=sparticuz|system narrows the list to one.
 */
export const BROWSER_BINARIES: BrowserBinary[] = (['system', 'sparticuz'] as const)
  .filter((name) => (name === 'system' ? systemPresent() && forced() !== 'sparticuz' : forced() !== 'system'))
  .map((name) => ({ name, launcher: () => new LocalChromiumLauncher({ binary: name }) }));
