import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The local data stores (dynalite and s3rver, functions/local/stores-main.ts) in a child process
 * of `npm start`. On AWS, DynamoDB and S3 are services of their own; locally, sharing the service's
 * one thread with them made every table call cost the service the store's work too (a 10,000-page
 * crawl spent a third of its CPU in dynalite and LevelDB). The child runs under the same Node flags
 * (heap bound, tsx) and ends with its parent: it stops when its stdin closes, which happens however
 * the parent ends, kill -9 included. Its pid is kept in `<dataDir>/stores.pid`, so a start right
 * after a killed one waits for the old child to let go of the data instead of failing on the
 * LevelDB lock.
 */
export interface StoresProcess {
  dynamoEndpoint: string;
  s3Endpoint: string;
  pid: number;
  /** Called once if the child ends while the service still needs it. */
  onUnexpectedExit(cb: (code: number | null, signal: NodeJS.Signals | null) => void): void;
  /** Close the stores (flushes LevelDB) and wait for the child to exit; killed after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const STORES_MAIN = join(dirname(fileURLToPath(import.meta.url)), 'stores-main.ts');
const pidFile = (dataDir: string) => join(resolve(dataDir), 'stores.pid');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};
/** Is `pid` a stores process (on Linux its command line says so; elsewhere any live pid counts)? */
const isStores = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('stores-main');
  } catch {
    return alive(pid);
  }
};

/**
 * Wait (up to `waitMs`) for the stores child of an earlier start on this data directory to exit:
 * after a kill -9 of the service it notices its closed stdin and closes within a moment. Throws a
 * clear error when it does not.
 */
export async function waitForEarlierStores(dataDir: string, waitMs = 15_000): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile(dataDir), 'utf8').trim());
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return;
  const until = Date.now() + waitMs;
  while (alive(pid) && isStores(pid)) {
    if (Date.now() > until)
      throw new Error(`The data stores of an earlier start (pid ${pid}) still use ${resolve(dataDir)}. Stop that Gleaner first (kill ${pid}), or set GLEANER_DATA_DIR to another directory.`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Start the stores child: DynamoDB on `port`, S3 on `port + 1` (any free ports for 0). */
export async function spawnStores(opts: { dataDir: string; port: number; table: string; buckets: string[] }): Promise<StoresProcess> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  // The parent's Node flags (the heap bound, `--import tsx`), so the child runs as the service does.
  const child: ChildProcess = spawn(process.execPath, [...process.execArgv.filter((a) => !a.startsWith('--cpu-prof')), STORES_MAIN, '--exit-with-stdin', `--port=${opts.port}`, dataDir, opts.table, ...opts.buckets], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  writeFileSync(pidFile(dataDir), `${child.pid}\n`);
  let stopping = false;
  let onExit: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  const ends = await new Promise<{ dynamoEndpoint: string; s3Endpoint: string }>((res, rej) => {
    let buf = '';
    const onData = (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // anything it prints later is dropped, never left to fill the pipe
      try {
        res(JSON.parse(buf.slice(0, nl)));
      } catch {
        rej(new Error(`the data stores process printed ${JSON.stringify(buf.slice(0, 200))} instead of its endpoints`));
      }
    };
    child.stdout!.on('data', onData);
    // Once the endpoints are in, this rejection has no effect.
    child.once('exit', (code, signal) => rej(new Error(`the data stores process (dynalite and s3rver) exited (${code ?? signal}) before it was ready; its error is printed above`)));
  });
  child.once('exit', (code, signal) => {
    if (!stopping) onExit?.(code, signal);
  });
  return {
    ...ends,
    pid: child.pid!,
    onUnexpectedExit: (cb) => void (onExit = cb),
    async stop(graceMs = 10_000) {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin!.end();
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      rmSync(pidFile(dataDir), { force: true });
    },
  };
}
