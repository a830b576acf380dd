import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService, type TestService } from '../../support/local-service.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { fetchDocument, generateTypes, TYPES_FILE } from '../../../examples/gen-client.js';
import { quickstart } from '../../../examples/quickstart.js';

/** Async, never spawnSync: the service under test runs in this process and must keep answering. */
const run = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  promisify(execFile)(process.execPath, args, { encoding: 'utf8', timeout: 180_000, env, maxBuffer: 64 * 1024 * 1024 }).then(
    (r) => ({ status: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code?: number; stdout?: string; stderr?: string }) => ({ status: e.code ?? 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' }),
  );

let svc: TestService;
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
  svc = await startTestService({ GLEANER_EGRESS_ALLOW: `127.0.0.1:${site.port}` });
});
afterAll(async () => {
  await svc?.destroy();
  await site?.close();
});

describe('the contract, from a client', () => {
  it('the committed client types are generated from the served document (npx tsx examples/gen-client.ts)', async () => {
    const fresh = await generateTypes(await fetchDocument(svc.url));
    expect(fresh === readFileSync(TYPES_FILE, 'utf8'), 'examples/gleaner-api.d.ts is stale: run `npx tsx examples/gen-client.ts` against `npm start`').toBe(true);
  });

  it('the typed quickstart compiles against the generated types', async () => {
    const r = await run(['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'examples/tsconfig.json']);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('the typed quickstart runs against the local service', async () => {
    const out = await quickstart(svc.url, svc.key, `${site.baseUrl}/about`);
    expect(out.scrapers).toContain('page-content');
    expect(out.run.status).toBe('succeeded');
    expect(out.items).toHaveLength(1);
    expect(out.items[0]!.url).toBe(`${site.baseUrl}/about`);
  });

  it('the served document is lint-clean with the recommended ruleset (redocly.yaml)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gleaner-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(await fetchDocument(svc.url)));
      const r = await run(['node_modules/@redocly/cli/bin/cli.js', 'lint', file, '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '1000'], { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' });
      const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { problems: { ruleId: string; message: string; location: { pointer: string }[] }[] };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
      expect(r.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
