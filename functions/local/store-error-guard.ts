import { resolve, sep } from 'node:path';
import { log } from '../core/log.js';

/** Code of the embedded stand-ins (and the LevelDB stack under dynalite). */
const STORE_MODULES = /[\\/]node_modules[\\/](s3rver|dynalite|level|classic-level|abstract-level|level-[a-z-]+|fs-extra|koa[a-z-]*)[\\/]/;

/**
 * Is this error from an embedded store: thrown from s3rver's or dynalite's code, or an fs error
 * on a file under the stores' data folders (stream errors carry the path, not a useful stack)?
 */
export function isStoreError(err: unknown, dataDirs: string[]): boolean {
  const e = err as (Error & { path?: unknown }) | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.stack === 'string' && STORE_MODULES.test(e.stack)) return true;
  if (typeof e.path === 'string') {
    const p = resolve(e.path);
    return dataDirs.some((d) => p === resolve(d) || p.startsWith(resolve(d) + sep));
  }
  return false;
}

/**
 * Last line of defence for the processes that host dynalite and s3rver (`npm start`,
 * stores-main.ts): an error that escapes a store (an `error` event nobody listened to, a throw
 * in a callback) is logged and the process keeps serving; the request it belonged to fails and
 * is retried by the SDK. Any other uncaught error still ends the process as Node would (exit 1
 * after printing it), since the service's own state can then not be trusted.
 */
export function guardStoreErrors(dataDirs: string[]): void {
  const onError = (err: unknown, origin: string) => {
    if (isStoreError(err, dataDirs)) {
      log.error('embedded store error (the service keeps running)', { err, origin });
      return;
    }
    process.stderr.write(`${origin === 'unhandledRejection' ? 'Unhandled rejection' : 'Uncaught exception'}: ${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', (err, origin) => onError(err, origin));
}
