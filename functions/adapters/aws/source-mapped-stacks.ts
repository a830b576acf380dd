import { readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';

/**
 * Stack traces of a minified Lambda bundle, mapped back to the TypeScript sources when they are
 * logged. Node's `--enable-source-maps` does this for every trace but reads and indexes the whole
 * source map at start-up, which was a fifth of an API function's cold start (issue 8); this reads
 * the map (`<bundle>.map`, written beside it by the CDK bundling) only when the first error is
 * logged. Without a map beside the bundle (running from source) stacks pass through unchanged.
 */
export function bundleStackMapper(bundlePath: string): (stack: string) => string {
  let map: SourceMap | null | undefined;
  const load = () => {
    if (map !== undefined) return map;
    try {
      map = new SourceMap(JSON.parse(readFileSync(`${bundlePath}.map`, 'utf8')));
    } catch {
      map = null; // no map (or unreadable): leave stacks as they are
    }
    return map;
  };
  const frame = /(?:file:\/\/)?(\/[^\s():]+):(\d+):(\d+)/g;
  return (stack) => {
    if (!stack.includes(bundlePath)) return stack;
    const m = load();
    if (!m) return stack;
    return stack.replace(frame, (all, file: string, line: string, col: string) => {
      if (file !== bundlePath) return all;
      const e = m.findEntry(Number(line) - 1, Number(col) - 1) as { originalSource?: string; originalLine?: number; originalColumn?: number };
      if (!e?.originalSource || e.originalLine === undefined || e.originalColumn === undefined) return all;
      return `${e.originalSource.replace(/^(\.\.\/)+/, '')}:${e.originalLine + 1}:${e.originalColumn + 1}`;
    });
  };
}
