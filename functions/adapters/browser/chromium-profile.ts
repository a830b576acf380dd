import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import puppeteer, { type Browser } from 'puppeteer-core';
import { PuppeteerBrowser } from './puppeteer-browser.js';
import { AppError } from '../../core/errors.js';

/**
 * What every Gleaner Chromium (system binary, @sparticuz fallback, Lambda) shares: flags and
 * profile preferences that keep all traffic on TCP through the egress proxy, and a profile
 * directory whose life is tied to the browser process.
 *
 * UDP cannot go through an HTTP proxy, so anything that would send it must be off:
 * - QUIC (`--disable-quic`);
 * - WebRTC ICE: `--force-webrtc-ip-handling-policy` is honoured by the headless shell, while a
 *   full Chrome takes the policy from the profile preference `webrtc.ip_handling_policy`, so both
 *   are set; with `disable_non_proxied_udp` and a proxy without UDP, no STUN/TURN/host candidate
 *   is gathered at all;
 * - mDNS: host candidates are not registered as `*.local` names (`WebRtcHideLocalIpsWithMdns`);
 * - and pages never see RTCPeerConnection or WebTransport (see NO_UDP_APIS_SCRIPT in
 *   adapters/browser/puppeteer-browser.ts), so a binary that ignored both of the above would still
 *   not open a peer connection.
 */
export const NO_UDP_FLAGS = [
  '--disable-quic',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--enforce-webrtc-ip-permission-check',
  '--disable-background-networking',
  '--disable-component-update',
];

/**
 * Flags the @sparticuz/chromium defaults carry that Gleaner drops: with web security off, a page's
 * scripts could read other sites' responses (with a runbook's logged-in cookies) through the proxy.
 */
export const DROPPED_FLAGS = ['--disable-web-security', '--allow-running-insecure-content'];

/**
 * Flags the local @sparticuz/chromium fallback adds to that package's defaults: compositing and
 * rasterising in software instead of through SwiftShader's emulated GPU, which cost the headless
 * shell about a third of its CPU per page (issue 37, bare puppeteer on the peers bench's JS pages:
 * about 150 -> 100 ms). WebGL still runs on SwiftShader (same renderer string, same pixels) and
 * screenshots come out the same. The system Chromium launch has always had it
 * (LOCAL_CHROMIUM_FLAGS); Lambda turns the package's graphics mode off instead.
 */
export const SPARTICUZ_EXTRA_FLAGS = ['--disable-gpu'];

/** Chromium features that would make requests of their own or send UDP. */
export const DISABLED_FEATURES = [
  'WebRtcHideLocalIpsWithMdns',
  'WebRtcAllowInputVolumeAdjustment',
  'MediaRouter',
  'DialMediaRouteProvider',
  'GlobalMediaControlsCastStartStop',
  'Translate',
  'OptimizationHints',
  'InterestFeedContentSuggestions',
];

/**
 * Chromium features turned off because they only cost CPU here: with `RenderDocument` (and the
 * browsing-instance swap `ProactivelySwapBrowsingInstance` does for the back/forward cache) every
 * navigation of a reused tab builds a new frame, view and V8 context in place of the old ones;
 * without them a same-site navigation reuses the frame, as Chromium did before (issue 37, peers
 * bench JS pages on a reused tab: Chromium CPU about 80 -> 68 ms a page). Pages cannot tell: a new
 * document still gets a fresh window and context, and cross-site navigations still swap.
 */
export const PERFORMANCE_DISABLED_FEATURES = ['RenderDocument', 'ProactivelySwapBrowsingInstance'];

/** Profile preferences written before launch (full Chrome reads WebRTC policy from here). */
export const PROFILE_PREFERENCES = {
  webrtc: { ip_handling_policy: 'disable_non_proxied_udp', multiple_routes_enabled: false, nonproxied_udp_enabled: false },
  local_discovery: { notifications_enabled: false },
  media_router: { enable_media_router: false },
};

/**
 * Add {@link NO_UDP_FLAGS}, drop {@link DROPPED_FLAGS}, turn off {@link DISABLED_FEATURES} and
 * {@link PERFORMANCE_DISABLED_FEATURES}, and merge every `--disable-features` / `--enable-features` value into
 * one switch each: Chromium keeps only the last occurrence of a switch, so appending a second
 * `--disable-features` would silently drop the first list (the @sparticuz args carry one).
 */
export function hardenedArgs(args: string[]): string[] {
  const disabled = new Set<string>([...DISABLED_FEATURES, ...PERFORMANCE_DISABLED_FEATURES]);
  const enabled = new Set<string>();
  const rest: string[] = [];
  for (const a of [...args, ...NO_UDP_FLAGS]) {
    if (DROPPED_FLAGS.includes(a)) continue;
    const m = /^--(disable|enable)-features=(.*)$/.exec(a);
    if (m) for (const f of m[2].split(',').filter(Boolean)) (m[1] === 'disable' ? disabled : enabled).add(f);
    else if (!rest.includes(a)) rest.push(a);
  }
  for (const f of disabled) enabled.delete(f);
  return [...rest, `--disable-features=${[...disabled].join(',')}`, ...(enabled.size ? [`--enable-features=${[...enabled].join(',')}`] : [])];
}

/** Browsers started by this process and not yet closed (closed all at once on shutdown). */
const live = new Set<Browser>();

/** Every browser this process launched: its pid and profile dir (tests check both are gone). */
const launched: Array<{ pid: number | undefined; profileDir: string }> = [];
export const launchedBrowsers = (): ReadonlyArray<{ pid: number | undefined; profileDir: string }> => launched;

/** How many browsers this process has running (tests, shutdown logs). */
export const liveBrowsers = (): number => live.size;

/** Close every browser this process started; each profile dir is removed after its process exited. */
export async function closeAllBrowsers(): Promise<void> {
  await Promise.allSettled([...live].map((b) => b.close()));
}

const exitOf = (proc: ChildProcess | null): Promise<void> =>
  !proc || proc.exitCode !== null || proc.signalCode !== null ? Promise.resolve() : new Promise((r) => proc.once('exit', () => r()));

/**
 * Launch Chromium with a fresh `gleaner-chromium-*` profile, as the Browser port. The returned
 * browser's `close()` resolves only once the process has exited and the profile dir is gone (a
 * removal racing a live Chromium leaves files behind: it keeps writing its profile until it
 * exits). A browser that disconnects by itself (crash, killed) is killed if still alive, awaited,
 * and removed the same way.
 */
export async function launchWithProfile(o: {
  executablePath: string;
  args: string[];
  headless: boolean | 'shell';
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Aborting it kills a Chromium still starting (the launch rejects) or, later, the browser. */
  signal?: AbortSignal;
}): Promise<PuppeteerBrowser> {
  launchStopped(o.signal);
  const userDataDir = await mkdtemp(join(tmpdir(), 'gleaner-chromium-'));
  try {
    await mkdir(join(userDataDir, 'Default'), { recursive: true });
    await writeFile(join(userDataDir, 'Default', 'Preferences'), JSON.stringify(PROFILE_PREFERENCES));
    const browser = await puppeteer.launch({
      executablePath: o.executablePath,
      args: hardenedArgs(o.args),
      headless: o.headless,
      userDataDir,
      env: o.env,
      signal: o.signal,
      timeout: o.timeoutMs ?? 30_000,
      protocolTimeout: 60_000,
      defaultViewport: { width: 1280, height: 900 },
      // A navigation Chromium turns into a download is given up at once (ERR_ABORTED once its
      // response headers are in, which puppeteer-tab.ts answers as a download: the pipeline reads
      // the document over http), never written to disk (the default behaviour saved every one in
      // the home directory's Downloads).
      downloadBehavior: { policy: 'deny' },
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const proc = browser.process();
    let cleaned: Promise<void> | undefined;
    const cleanup = () =>
      (cleaned ??= (async () => {
        live.delete(browser);
        if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
        await exitOf(proc);
        // Chromium's helper processes (crashpad) can still be writing into the profile for a
        // moment after the browser exits; on a loaded machine three quick retries were not enough
        // (runbook-limits.test.ts found a profile dir left behind): retry for up to ~5 s.
        await rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
      })());
    const close = browser.close.bind(browser);
    browser.close = async () => {
      // Puppeteer's close asks Chromium to quit and waits for it; bounded, then killed by cleanup.
      await Promise.race([close().catch(() => {}), new Promise((r) => setTimeout(r, 5_000).unref())]);
      await cleanup();
    };
    browser.once('disconnected', () => void cleanup());
    live.add(browser);
    launched.push({ pid: proc?.pid, profileDir: userDataDir });
    return new PuppeteerBrowser(browser);
  } catch (err) {
    // A killed launch's Chromium may still be exiting; its profile goes as a closed browser's does.
    await rm(userDataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => {});
    launchStopped(o.signal);
    throw err;
  }
}

/** Throws AppError 503 `browser_unavailable` when the launch was given up (its signal aborted). */
export function launchStopped(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AppError(503, 'browser_unavailable', 'The launch was stopped while Chromium was starting (the run ended, ran out of time or the service shut down)');
}
