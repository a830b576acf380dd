import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import { bundlingOptions, REPO_ROOT } from '../lib/gleaner-function.ts';
const [entry, target] = process.argv.slice(2);
const opts = bundlingOptions();
const res = await build({ entryPoints: [join(REPO_ROOT, entry)], absWorkingDir: REPO_ROOT, bundle: true, platform: 'node', format: 'esm', minify: true, target: opts.target, external: opts.externalModules, write: false, metafile: true, logLevel: 'silent', outdir: '/tmp/cs/out' });
const m = res.metafile as Metafile;
const re = new RegExp(target);
// BFS from entry
const start = entry;
const prev = new Map<string, string>(); const q = [start]; prev.set(start, '');
let found: string | undefined;
while (q.length) { const f = q.shift()!; if (re.test(f)) { found = f; break; } for (const i of m.inputs[f]?.imports ?? []) { if (i.external || prev.has(i.path)) continue; prev.set(i.path, f); q.push(i.path); } }
const chain: string[] = []; for (let f = found; f; f = prev.get(f) || undefined) chain.unshift(f);
console.log(chain.join('\n  -> '));
