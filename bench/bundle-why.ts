import { routes } from '../functions/routes.js';
import { cdkBundle, ENGINE_INPUT, initOutputs, inputOwner } from './cdk-bundle.js';

/**
 * Why is a module in a Lambda bundle? `npx tsx bench/bundle-why.ts <route id|handler regex> [module regex] [--init]`
 * bundles the matching API handlers as CDK does and prints, per handler, its size, the largest
 * packages inlined and the import chain from the handler to the first input matching the module
 * regex (default: ENGINE_INPUT, the engine and its HTTP/HTML stack). With `--init` only static
 * imports are followed (what the function evaluates at init; an `import()` is evaluated when
 * called) and the bytes of the code evaluated at init are printed too, with the bytes of the files
 * Init reads (the entry and the chunks it imports statically: functions are split into chunks).
 */
const args = process.argv.slice(2);
const init = args.includes('--init');
const [which = '.', target] = args.filter((a) => a !== '--init');
const sel = new RegExp(which);
const want = target ? new RegExp(target) : ENGINE_INPUT;
const seen = new Set<string>();
for (const r of routes) {
  if (seen.has(r.handler) || !(sel.test(r.id) || sel.test(r.handler))) continue;
  seen.add(r.handler);
  const b = await cdkBundle(r.handler, undefined, { validators: r.validators });
  // Each input's bytes in whichever output (entry or chunk) holds it.
  const inOutput = new Map<string, number>();
  for (const o of Object.values(b.metafile.outputs)) for (const [f, i] of Object.entries(o.inputs)) inOutput.set(f, (inOutput.get(f) ?? 0) + i.bytesInOutput);
  const by = new Map<string, number>();
  for (const [f, n] of inOutput) by.set(inputOwner(f), (by.get(inputOwner(f)) ?? 0) + n);
  const top = [...by].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${(v / 1024).toFixed(0)}`).join(', ');
  console.log(`\n${r.id} (${r.handler}): ${(b.bytes / 1024).toFixed(0)} KiB: ${top}`);
  // Breadth-first from the entry: the shortest import chain to a matching input.
  const prev = new Map<string, string | null>([[r.handler, null]]);
  const queue = [r.handler];
  let hit: string | undefined;
  while (queue.length && !hit) {
    const f = queue.shift()!;
    for (const i of b.metafile.inputs[f]?.imports ?? []) {
      if (i.external || prev.has(i.path) || (init && i.kind === 'dynamic-import')) continue;
      prev.set(i.path, f);
      if (want.test(i.path)) { hit = i.path; break; }
      queue.push(i.path);
    }
  }
  if (init) {
    // The whole statically reachable set (the search above stops at the first match).
    const all = new Set([r.handler]);
    for (const f of all) for (const i of b.metafile.inputs[f]?.imports ?? []) if (!i.external && i.kind !== 'dynamic-import') all.add(i.path);
    const bytes = [...all].reduce((n, f) => n + (inOutput.get(f) ?? 0), 0);
    const files = initOutputs(b.metafile);
    console.log(`  evaluated at init: ${all.size} modules, ${(bytes / 1024).toFixed(0)} KiB of the bundle's code; read at init: ${files.length} files, ${(b.initBytes / 1024).toFixed(0)} KiB`);
  }
  const chain: string[] = [];
  for (let f: string | null | undefined = hit; f; f = prev.get(f)) chain.unshift(f);
  console.log(chain.length ? `  ${chain.join('\n    -> ')}` : '  (no match)');
}
