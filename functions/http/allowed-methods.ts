import type { Route } from '../routes.js';

const templates = new WeakMap<Route[], { re: RegExp; method: string }[]>();

/**
 * The methods the route table serves on a concrete path (empty when no row matches it): the
 * `Allow` of a 405. Computed from the table, so it cannot disagree with the routes that exist.
 */
export function allowedMethods(table: Route[], path: string): string[] {
  let compiled = templates.get(table);
  if (!compiled) {
    compiled = table
      .filter((r) => r.method !== 'ANY')
      .map((r) => ({
        method: r.method,
        re: new RegExp(`^${r.path.replace(/[.*?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\+\}/g, '.+').replace(/\{\w+\}/g, '[^/]+')}$`),
      }));
    templates.set(table, compiled);
  }
  const out = new Set<string>();
  for (const t of compiled) if (t.re.test(path)) out.add(t.method);
  if (out.has('GET')) out.add('HEAD');
  return [...out].sort();
}
