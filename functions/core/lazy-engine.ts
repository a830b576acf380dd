import { createRequire } from 'node:module';

/**
 * A heavy library loaded on first use rather than at import (cold start, issue 8). `bundled` is
 * the caller's own `() => require('./x-engine.js')`: in a bundle, esbuild turns that `require` of
 * a bundled module into a lazy initialiser of the module, so its code runs on the first call. Run
 * from source (tsx, vitest: the caller is a .ts file, ESM has no `require`), Node's require loads
 * `sourcePackage`, the library's CommonJS build of the same version. The require must stay
 * literal in the caller's file for esbuild to see it.
 */
export function lazyEngine<T>(callerUrl: string, sourcePackage: string, bundled: () => T): () => T {
  let engine: T | undefined;
  return () => (engine ??= callerUrl.endsWith('.ts') ? (createRequire(callerUrl)(sourcePackage) as T) : bundled());
}
