import { afterAll, describe, expect, it } from 'vitest';
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { basePortBelowEphemeral } from '../../support/base-port.js';

// The local entry point as a user runs it (`npm start` runs exactly this), in its own process:
// it prints the three URLs and a one-time key, serves the API, and keeps data across a restart.
const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-start-'));
const port = basePortBelowEphemeral();
const env = { ...process.env, PORT: String(port), GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'warn' };
let child: ChildProcess | undefined;

function start(): Promise<string> {
  return new Promise((resolve, reject) => {
    child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no banner:\n${out}`)), 60_000);
    child.stdout!.on('data', (b) => {
      out += b;
      if (out.includes('Admin') || out.includes('create another')) {
        clearTimeout(timer);
        setTimeout(() => resolve(out), 50);
      }
    });
    child.stderr!.on('data', (b) => (out += b));
    child.once('exit', (code) => reject(new Error(`exited ${code}:\n${out}`)));
  });
}
async function stop() {
  if (!child) return;
  const c = child;
  child = undefined;
  await new Promise<void>((r) => {
    c.once('exit', () => r());
    c.kill('SIGTERM');
  });
}
afterAll(async () => {
  await stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('npm start (functions/local/main.ts) in its own process', () => {
  it('prints the URLs and a key once, serves the API, and keeps the key across a restart', async () => {
    const banner = await start();
    expect(banner).toContain(`base_url     http://127.0.0.1:${port}/v1`);
    expect(banner).toContain(`console_url  http://127.0.0.1:${port}/`);
    expect(banner).toContain(`mcp_url      http://127.0.0.1:${port}`);
    const key = /glr_[0-9A-Za-z]{28,}/.exec(banner)![0];
    const call = (k?: string) => fetch(`http://127.0.0.1:${port}/v1/tenant`, { headers: k ? { authorization: `Bearer ${k}` } : {} });
    expect((await call()).status).toBe(401);
    expect((await call(key)).status).toBe(200);

    // The operator CLI talks to the running server's store on PORT+1.
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'functions/cli/admin.ts', 'tenants', 'list', '--json'], { env });
    expect(JSON.parse(stdout.trim().split('\n').pop()!)[0]).toMatchObject({ name: 'default', billing_status: 'active' });

    await stop();
    const again = await start();
    expect(again).not.toMatch(/glr_[0-9A-Za-z]{28,}/); // the key is shown once only
    expect((await call(key)).status).toBe(200);
  });
});
