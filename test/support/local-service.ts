import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../functions/config.js';
import { startLocal, type LocalService } from '../../functions/local/local-server.js';
import { clearAuthCache } from '../../functions/http/pipeline/authenticate.js';

export interface TestService extends LocalService {
  key: string;
  dataDir: string;
  /** fetch against the service with the admin key unless `auth: false` or another key. */
  call(path: string, init?: RequestInit & { key?: string | null; json?: unknown }): Promise<{ status: number; headers: Headers; body: any; text: string }>;
  restart(): Promise<TestService>;
  destroy(): Promise<void>;
}

/** Start the whole local service in-process on ephemeral ports with a fresh data dir. */
export async function startTestService(env: Record<string, string> = {}, dataDir = mkdtempSync(join(tmpdir(), 'gleaner-test-'))): Promise<TestService> {
  clearAuthCache();
  const cfg = loadConfig({ PORT: '0', GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'warn', GLEANER_BOOTSTRAP_API_KEY: 'glr_testadminkey000000000000000000000', ...env });
  const svc = await startLocal(cfg, { quiet: true });
  const key = cfg.bootstrapKey!;
  const t: TestService = Object.assign(svc, {
    key,
    dataDir,
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
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: res.status, headers: res.headers, body: parsed as any, text };
    },
    async restart() {
      await svc.close();
      return startTestService(env, dataDir);
    },
    async destroy() {
      await svc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
  return t;
}
