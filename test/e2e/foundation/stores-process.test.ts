import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEY, LocalProcess } from '../crawl/local-process.js';

// `npm start` runs dynalite and s3rver in a child process (functions/local/stores-process.ts). It
// must end with the service however the service ends, let a restart on the same data in at once,
// and take the service down with it if it dies, rather than leave a service without its data.
const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-stores-proc-'));
// Audit records wait a minute in the journal before their table write: a kill -9 finds them only
// there, and the restart's replay is what brings them to the audit list.
const svc = new LocalProcess({ GLEANER_DATA_DIR: dataDir, GLEANER_AUDIT_FLUSH_MS: '60000' });
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

    // Answered calls whose audit records are, at the kill, only in the journal (see above).
    const answered = await Promise.all(Array.from({ length: 30 }, async () => {
      const res = await fetch(`http://127.0.0.1:${svc.port}/v1/tenant`, { headers: { authorization: `Bearer ${KEY}` } });
      await res.arrayBuffer();
      return res.headers.get('x-request-id')!;
    }));
    const journal = join(dataDir, 'audit-journal');

    await svc.kill('SIGKILL');
    const before = readdirSync(journal);
    const journaled = before.map((f) => readFileSync(join(journal, f), 'utf8')).join('');
    for (const id of answered) expect(journaled).toContain(id);
    // Restart immediately: the new start waits for the old child to let go of LevelDB and the ports.
    await svc.start();
    expect(await gone(first)).toBe(true);
    const second = storesPid();
    expect(second).not.toBe(first);
    const list = await svc.call('/v1/webhooks');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).toContain(created.body.webhook_id);
    // Every answered call is in the audit log, once: replayed from the journal at the start.
    const audit = await svc.call('/dashboard/api/audit?limit=200');
    expect(audit.status).toBe(200);
    const ids = (audit.body.data as { request_id: string }[]).map((r) => r.request_id);
    for (const id of answered) expect(ids.filter((x) => x === id)).toHaveLength(1);
    // The killed run's journal files are gone once replayed.
    expect(readdirSync(journal).filter((f) => before.includes(f))).toEqual([]);

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
