import { execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.js';
import { CONSOLE_HANDLER, commandHooksFor, REPO_ROOT } from '../../lib/gleaner-function.js';
import { cdkBundle } from '../../bench/cdk-bundle.js';

// The CDK stack tests skip bundling; this runs the very commands a function's `afterBundling` hook
// gives CDK (lib/gleaner-function.ts commandHooksFor) over a folder as NodejsFunction leaves it,
// then starts the function from that folder the way Lambda does (issue 31: its code split into
// chunks so Init reads only the entry). The folder is inside the repository so the runtime's
// packages (@aws-sdk/client-*, and re2js and cheerio for `validators` routes) resolve as on Lambda.
const dir = mkdtempSync(join(REPO_ROOT, '.tmp-split-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const RUNNER = join(REPO_ROOT, 'bench/cold-start/runner.mjs');
const route = (id: string) => routes.find((r) => r.id === id)!;

/** An unauthenticated API Gateway (HTTP API v2) event for a route. */
function eventFor(r: { method: string; path: string }) {
  const path = r.path.replace(/\{[^}]+\}/g, 'x');
  const routeKey = `${r.method} ${r.path}`;
  return {
    version: '2.0', routeKey, rawPath: path, rawQueryString: '', headers: { host: 'api.example.com' },
    requestContext: { accountId: '1', apiId: 't', domainName: 'api.example.com', domainPrefix: 'api', requestId: 't', routeKey, stage: '$default', time: '', timeEpoch: 0, http: { method: r.method === 'ANY' ? 'GET' : r.method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 't' } },
    isBase64Encoded: false,
  };
}

/** What CDK does for a function: its one-file bundle (a stand-in here: the hook replaces it), then the hook's commands. */
function bundleAsCdk(r: { id: string; handler: string; validators?: boolean }) {
  const out = join(dir, r.id);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'index.mjs'), 'throw new Error("the one-file bundle was not replaced");\n');
  for (const cmd of commandHooksFor({ handler: r.handler, validators: r.validators }).afterBundling(REPO_ROOT, out)) execSync(cmd, { cwd: REPO_ROOT, stdio: 'pipe', shell: '/bin/bash' });
  return out;
}

describe('a function split into chunks by its CDK bundling hook', () => {
  for (const id of ['tenant.get', 'jobs.create', 'console']) {
    it(`${id}: starts and answers from its folder; every chunk loads; the bench builds the same files`, { timeout: 60_000 }, async () => {
      const r = id === 'console' ? routes.find((x) => x.handler === CONSOLE_HANDLER)! : route(id);
      const out = bundleAsCdk(r);
      // The function's code (budget-thread.mjs is a worker thread's own bundle beside it).
      const files = readdirSync(out).filter((f) => f.endsWith('.mjs') && f !== 'budget-thread.mjs' && f !== 'load-all.mjs');
      const chunks = files.filter((f) => f !== 'index.mjs');
      // The entry imports chunks; the code its route loads on first use is in chunks of their own.
      expect(chunks.length).toBeGreaterThan(3);
      expect(readFileSync(join(out, 'index.mjs'), 'utf8')).toMatch(/import\("\.\/[\w-]+\.mjs"\)/);
      for (const f of files) expect(existsSync(join(out, `${f}.map`)), `${f}.map`).toBe(true);
      if (r.handler === CONSOLE_HANDLER) expect(existsSync(join(out, 'console/index.html'))).toBe(true);
      if (r.validators) expect(existsSync(join(out, 'budget-thread.mjs'))).toBe(true);

      // A cold start as Lambda performs it: import, then the first (unauthenticated) request.
      const cold = spawnSync(process.execPath, [RUNNER, join(out, 'index.mjs'), JSON.stringify(eventFor(r))], { encoding: 'utf8', cwd: REPO_ROOT });
      expect(cold.status, cold.stderr).toBe(0);
      const res = JSON.parse(cold.stdout.trim().split('\n').pop()!) as { status: number };
      expect(res.status).toBe(r.handler === CONSOLE_HANDLER ? 200 : 401);

      // Every chunk evaluates: the code loaded on later calls links and runs in the deployed layout.
      const loader = join(out, 'load-all.mjs');
      writeFileSync(loader, `for (const f of ${JSON.stringify(chunks)}) await import(${JSON.stringify(pathToFileURL(out).href)} + '/' + f);\nprocess.stdout.write('ok');\n`);
      const all = spawnSync(process.execPath, [loader], { encoding: 'utf8', cwd: REPO_ROOT, env: { ...process.env, GLEANER_TABLE: 't', GLEANER_RESULTS_BUCKET: 'r', GLEANER_RAW_BUCKET: 'w' } });
      expect(all.stderr + all.stdout).toBe('ok');

      // bench/cdk-bundle.ts (the cold-start bench and api-cold-start.test.ts) builds the same files.
      // (Chunk hashes cover the source maps' relative paths, so the names are compared without them.)
      const b = await cdkBundle(r.handler, undefined, { validators: r.validators });
      const unhashed = (fs: string[]) => fs.map((f) => f.replace(/-[A-Z0-9]{8}\.mjs$/, '.mjs')).sort();
      const benchFiles = Object.keys(b.metafile.outputs).map((f) => f.split('/').pop()!).filter((f) => f.endsWith('.mjs'));
      expect(unhashed(benchFiles)).toEqual(unhashed(files));
      expect(b.bytes).toBe(files.reduce((n, f) => n + readFileSync(join(out, f)).length, 0));
    });
  }
});
