import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../functions/config.js';
import { startLocal, type LocalService } from '../../functions/local/local-server.js';
import { clearAuthCache } from '../../functions/http/pipeline/authenticate.js';
import { contractChecker, type ContractChecker } from './contract-check.js';

export interface TestService extends LocalService {
  key: string;
  dataDir: string;
  /** fetch against the service with the admin key unless `auth: false` or another key. */
  call(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  restart(): Promise<TestService>;
  destroy(): Promise<void>;
  /** Responses that broke the served OpenAPI document (every request, whoever sent it). */
  contractViolations: string[];
}

/**
 * Every response the service sends in a test is checked against the document it serves (the
 * observer sees fetch, MCP SDK and browser traffic alike). `svc.call` throws on its own
 * response's violation; `destroy()` and `restart()` fail the suite if any other request broke it.
 * Pass `{ GLEANER_TEST_CONTRACT: 'off' }` only for a test that sends deliberately broken traffic.
 */
function contractObserver() {
  let checker: ContractChecker | undefined;
  const byRequest = new Map<string, string>();
  const all: string[] = [];
  return {
    all,
    byRequest,
    set(c: ContractChecker) {
      checker = c;
    },
    async observe(req: Request, res: Response) {
      if (!checker) return;
      const body = await res.text();
      const v = checker.check(req.method, new URL(req.url).pathname, res.status, res.headers, body);
      if (v) {
        all.push(v);
        byRequest.set(res.headers.get('x-request-id') ?? '', v);
      }
    },
  };
}

const assertConforms = (violations: string[]) => {
  if (violations.length) throw new Error(`${violations.length} response(s) broke the served OpenAPI document:\n- ${[...new Set(violations)].join('\n- ')}`);
};

/** Start the whole local service in-process on ephemeral ports with a fresh data dir. */
export async function startTestService(env: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'gleaner-test-'))): Promise<TestService> {
  clearAuthCache();
  const cfg = loadConfig({ PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'warn', GLEANER_BOOTSTRAP_API_KEY: 'glr_testadminkey000000000000000000000', ...env });
  const contract = contractObserver();
  const checking = env.GLEANER_TEST_CONTRACT !== 'off';
  const svc = await startLocal(cfg, { quiet: true, observe: checking ? (req, res) => contract.observe(req, res) : undefined });
  if (checking) contract.set(contractChecker(await (await fetch(`${svc.url}/v1/openapi.json`)).json()));
  const key = cfg.bootstrapKey!;
  const t: TestService = Object.assign(svc, {
    key,
    dataDir,
    contractViolations: contract.all,
    async call(path: string, init: RequestInit & { key?: string | null; json?: unknown } = {}) {
      const headers = new Headers(init.headers);
      const k = init.key === undefined ? key : init.key;
      if (k) headers.set('authorization', `Bearer ${k}`);
      let body = init.body;
      if (init.json !== undefined) {
        body = JSON.stringify(init.json);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      const res = await fetch(svc.url + path, { ...init, headers, body });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      const violation = contract.byRequest.get(res.headers.get('x-request-id') ?? '');
      if (violation) {
        contract.all.splice(contract.all.indexOf(violation), 1);
        contract.byRequest.delete(res.headers.get('x-request-id') ?? '');
        throw new Error(`The response broke the served OpenAPI document: ${violation}`);
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
    async restart() {
      await svc.close();
      assertConforms(contract.all);
      return startTestService(env, dataDir);
    },
    async destroy() {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
      assertConforms(contract.all);
    },
  });
  return t;
}
