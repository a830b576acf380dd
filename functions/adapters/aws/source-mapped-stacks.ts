import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, sep } from 'node:path';

/**
 * Stack traces of a minified Lambda bundle, mapped back to the TypeScript sources when they are
 * logged. Node's `--enable-source-maps` does this for every trace but reads and indexes the whole
 * source map at start-up, which was a fifth of an API function's cold start (issue 8); this reads
 * a map (`<file>.map`, written beside each file by the bundling) only when an error with a frame
 * in that file is logged. A function's code is its entry and the chunks beside it (code splitting,
 * lib/gleaner-function.ts `splitBundleArgs`): a frame in any `.mjs`/`.js` file of the bundle's
 * folder is mapped with that file's own map. Without a map beside a file (running from source)
 * its frames pass through unchanged.
 */
export function bundleStackMapper(bundlePath: string): (stack: string) => string {
  const dir = dirname(bundlePath) + sep;
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (file: string): SourceMap | null => {
    let m = maps.get(file);
    if (m !== undefined) return m;
    try {
      m = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      m = null; // no map (or unreadable): leave its frames as they are
    }
    maps.set(file, m);
    return m;
  };
  const frame = /(?:file:\/\/)?(\/[^\s():]+):(\d+):(\d+)/g;
  const ours = (file: string) => file.startsWith(dir) && !file.slice(dir.length).includes(sep) && /\.m?js$/.test(file);
  return (stack) => {
    if (!stack.includes(dir)) return stack;
    return stack.replace(frame, (all, file: string, line: string, col: string) => {
      if (!ours(file)) return all;
      const m = mapOf(file);
      if (!m) return all;
      const e = m.findEntry(Number(line) - 1, Number(col) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (!e?.originalSource || e.originalLine === undefined || e.originalColumn === undefined) return all;
      return `${e.originalSource.replace(/^(\.\.\/)+/, '')}:${e.originalLine + 1}:${e.originalColumn + 1}`;
    });
  };
}
