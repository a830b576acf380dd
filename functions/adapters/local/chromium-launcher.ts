import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { createRequire } from 'node:module';
import { brotliDecompressSync } from 'node:zlib';
import { config } from '../../config.js';
import { AppError } from '../../core/errors.js';
import { chromiumProxyArgs } from '../../core/governance/egress-proxy.js';
import type { Browser, BrowserLauncher, LaunchOptions } from '../../ports/browser.js';
import { SPARTICUZ_EXTRA_FLAGS, launchStopped, launchWithProfile } from '../browser/chromium-profile.js';

/**
 * Flags for a system Chromium: background networking, component updates and sync are off so the
 * browser makes no requests of its own. `launchWithProfile` adds the no-UDP flags (QUIC, WebRTC,
 * mDNS) every Gleaner browser gets and merges the feature lists.
 */
export const LOCAL_CHROMIUM_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--no-pings',
  '--hide-scrollbars',
  '--mute-audio',
  '--disable-features=Translate,OptimizationHints,MediaRouter,DialMediaRouteProvider,InterestFeedContentSuggestions',
];

/** Well-known system Chromium locations, tried in order after GLEANER_CHROMIUM_PATH. */
export const SYSTEM_CHROMIUM_PATHS = [
  '/usr/lib/chromium/chromium',
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

const INSTALL_ADVICE =
  'No Chromium could be started. Install it with `apt-get install -y chromium` (Debian/Ubuntu) or set ' +
  'GLEANER_CHROMIUM_PATH to a Chromium or Chrome executable; the bundled @sparticuz/chromium fallback failed too.';

/** Options of {@link LocalChromiumLauncher}. */
export interface LocalChromiumLauncherOptions {
  /** GLEANER_CHROMIUM_PATH (tried first). */
  executablePath?: string;
  /** Paths to try after `executablePath` (default {@link SYSTEM_CHROMIUM_PATHS}). */
  candidates?: string[];
  /** Fall back to the bundled @sparticuz/chromium binary (default true). */
  sparticuzFallback?: boolean;
  /** Milliseconds to wait for the browser to start (default 30 s). */
  launchTimeoutMs?: number;
  /**
   * Which binaries to try (default GLEANER_CHROMIUM, else `auto`): `auto` = a system Chromium,
   * then the @sparticuz/chromium fallback; `system` = system only; `sparticuz` = only the binary
   * deployed to Lambda (tests run the browser suites on it even where a system Chromium exists).
   */
  binary?: ChromiumBinary;
}

/** See {@link LocalChromiumLauncherOptions.binary}. */
export type ChromiumBinary = 'auto' | 'system' | 'sparticuz';

/** Which executable a launch used (for logs and the smoke test). */
export interface LaunchedWith {
  kind: 'system' | 'sparticuz';
  executablePath: string;
}

/**
 * Local-mode {@link BrowserLauncher}: a system Chromium with a fresh profile per browser, all
 * traffic through the egress proxy. Falls back to the @sparticuz/chromium binary (unpacked to the
 * temp dir, with its Amazon Linux libraries on LD_LIBRARY_PATH so it also runs off Lambda).
 * @throws AppError 503 `browser_unavailable` with install advice when nothing starts.
 */
export class LocalChromiumLauncher implements BrowserLauncher {
  /** Set after each successful launch. */
  lastLaunch: LaunchedWith | null = null;
  private readonly opts: LocalChromiumLauncherOptions;

  constructor(opts: LocalChromiumLauncherOptions = {}) {
    this.opts = { ...opts, executablePath: opts.executablePath ?? configuredChromiumPath(), binary: opts.binary ?? configuredBinary() };
  }

  async launch(opts: LaunchOptions): Promise<Browser> {
    const errors: string[] = [];
    const tried = new Set<string>();
    const binary = this.opts.binary ?? 'auto';
    const candidates = binary === 'sparticuz' ? [] : [this.opts.executablePath, ...(this.opts.candidates ?? SYSTEM_CHROMIUM_PATHS)].filter(
      (p): p is string => Boolean(p),
    );
    for (const path of candidates) {
      const real = normalize(path);
      if (tried.has(real) || !existsSync(real)) continue;
      tried.add(real);
      try {
        const browser = await launchWithProfile({
          executablePath: real,
          args: [...LOCAL_CHROMIUM_FLAGS, ...chromiumProxyArgs(opts.proxyUrl), ...uaArgs(opts.userAgent)],
          headless: false, // --headless=new is in the flags
          timeoutMs: this.opts.launchTimeoutMs,
          signal: opts.signal,
        });
        this.lastLaunch = { kind: 'system', executablePath: real };
        return browser;
      } catch (err) {
        launchStopped(opts.signal);
        errors.push(`${real}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    if (binary !== 'system' && (this.opts.sparticuzFallback !== false || binary === 'sparticuz')) {
      launchStopped(opts.signal); // before unpacking the fallback binary
      try {
        const browser = await launchSparticuz(opts, this.opts.launchTimeoutMs);
        this.lastLaunch = { kind: 'sparticuz', executablePath: browser.executablePath };
        return browser.browser;
      } catch (err) {
        launchStopped(opts.signal);
        errors.push(`@sparticuz/chromium: ${(err as Error).message.split('\n')[0]}`);
      }
    }
    throw new AppError(503, 'browser_unavailable', INSTALL_ADVICE, { tried: errors });
  }
}

/** GLEANER_CHROMIUM_PATH; a broken unrelated setting must not stop the browser, so errors mean "unset". */
function configuredChromiumPath(): string | undefined {
  try {
    return config().chromiumPath;
  } catch {
    return undefined;
  }
}

/** GLEANER_CHROMIUM; as for the path, a broken unrelated setting means "unset". */
function configuredBinary(): ChromiumBinary {
  try {
    return config().chromiumBinary ?? 'auto';
  } catch {
    return 'auto';
  }
}

const uaArgs = (ua?: string) => (ua ? [`--user-agent=${ua}`] : []);

/**
 * Unpack the @sparticuz/chromium binary (to the temp dir; reused when already there) and the
 * Amazon Linux 2023 shared libraries it ships (`al2023.tar.br`). The package only unpacks those on
 * Lambda; off Lambda we unpack them ourselves and append their folder to LD_LIBRARY_PATH (appended,
 * so the host's own libraries win and the bundled ones only fill gaps).
 */
export async function sparticuzExecutable(): Promise<{ executablePath: string; args: string[]; env: NodeJS.ProcessEnv }> {
  const chromium = (await import('@sparticuz/chromium')).default;
  const executablePath = await chromium.executablePath();
  const libDir = unpackAl2023Libs();
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (libDir) env.LD_LIBRARY_PATH = [process.env.LD_LIBRARY_PATH, libDir].filter(Boolean).join(':');
  env.FONTCONFIG_PATH ??= join(tmpdir(), 'fonts');
  return { executablePath, args: chromium.args, env };
}

async function launchSparticuz(
  opts: LaunchOptions,
  timeoutMs?: number,
): Promise<{ browser: Browser; executablePath: string }> {
  const s = await sparticuzExecutable();
  const browser = await launchWithProfile({
    executablePath: s.executablePath,
    args: [...s.args, ...SPARTICUZ_EXTRA_FLAGS, ...chromiumProxyArgs(opts.proxyUrl), ...uaArgs(opts.userAgent)],
    headless: 'shell',
    env: s.env,
    timeoutMs,
    signal: opts.signal,
  });
  return { browser, executablePath: s.executablePath };
}

/** Unpack `bin/al2023.tar.br` of @sparticuz/chromium into `<tmp>/al2023`; returns its lib folder or null. */
function unpackAl2023Libs(): string | null {
  const out = join(tmpdir(), 'al2023');
  const lib = join(out, 'lib');
  if (existsSync(join(lib, 'libnss3.so'))) return lib;
  let archive: string;
  try {
    const require = createRequire(import.meta.url);
    // The package's exports hide package.json; resolve its entry and walk up to the package root.
    let dir = dirname(require.resolve('@sparticuz/chromium'));
    while (!existsSync(join(dir, 'bin', 'al2023.tar.br')) && dirname(dir) !== dir) dir = dirname(dir);
    archive = join(dir, 'bin', 'al2023.tar.br');
    if (!existsSync(archive)) return null;
  } catch {
    return null;
  }
  extractTar(brotliDecompressSync(readFileSync(archive)), out);
  return existsSync(lib) ? lib : null;
}

/** Minimal ustar reader: regular files and directories only (all al2023.tar.br contains). */
function extractTar(tar: Buffer, dest: string): void {
  let off = 0;
  while (off + 512 <= tar.length) {
    const header = tar.subarray(off, off + 512);
    if (header.every((b) => b === 0)) break;
    const str = (a: number, b: number) => header.subarray(a, b).toString('utf8').replace(/\0.*$/s, '');
    const name = (str(345, 500) ? `${str(345, 500)}/` : '') + str(0, 100);
    const size = parseInt(str(124, 136).trim() || '0', 8);
    const mode = parseInt(str(100, 108).trim() || '644', 8);
    const type = String.fromCharCode(header[156] || 48);
    off += 512;
    const target = normalize(join(dest, name));
    if (!target.startsWith(normalize(dest))) throw new Error(`Unsafe path in archive: ${name}`);
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, tar.subarray(off, off + size), { mode });
    }
    off += Math.ceil(size / 512) * 512;
  }
}
