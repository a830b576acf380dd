import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalProcess } from '../crawl/local-process.js';

// `npm start` runs dynalite and s3rver in a child process (functions/local/stores-process.ts). It
// must end with the service however the service ends, let a restart on the same data in at once,
// and take the service down with it if it dies, rather than leave a service without its data.
const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-stores-proc-'));
const svc = new LocalProcess({ GLEANER_DATA_DIR: dataDir });
afterAll(async () => {
  await svc.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
});

const storesPid = () => Number(readFileSync(join(dataDir, 'stores.pid'), 'utf8').trim());
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function gone(pid: number, ms = 15_000) {
  const until = Date.now() + ms;
  while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

describe('npm start: the data stores in a child process', () => {
  it('ends with a killed service, and a restart at once on the same data keeps what was stored', async () => {
    await svc.start();
    const first = storesPid();
    expect(first).not.toBe(0);
    expect(readFileSync(`/proc/${first}/cmdline`, 'utf8')).toContain('stores-main');
    const created = await svc.call('/v1/webhooks', { method: 'POST', json: { url: 'https://hooks.example.com/in' } });
    expect(created.status).toBe(201);

    await svc.kill('SIGKILL');
    // Restart immediately: the new start waits for the old child to let go of LevelDB and the ports.
    await svc.start();
    expect(await gone(first)).toBe(true);
    const second = storesPid();
    expect(second).not.toBe(first);
    const list = await svc.call('/v1/webhooks');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(created.body.webhook_id);

    await svc.kill('SIGTERM');
    expect(await gone(second)).toBe(true);
  }, 120_000);

  it('a stores process that dies takes the service down with a clear message', async () => {
    await svc.start().catch((e) => {
      throw new Error(`${e.message}\n${svc.output}`);
    });
    const pid = storesPid();
    const exited = new Promise<void>((r) => {
      const check = setInterval(() => {
        if (/exited \(SIGKILL\); Gleaner stops/.test(svc.output)) {
          clearInterval(check);
          r();
        }
      }, 50);
    });
    process.kill(pid, 'SIGKILL');
    await exited;
    expect(svc.output).toContain(`The data stores process (pid ${pid}) exited (SIGKILL); Gleaner stops. Run npm start again.`);
    await expect(svc.call('/v1/tenant')).rejects.toThrow();
  }, 120_000);
});
