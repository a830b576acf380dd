import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkPorts, PortInUseError } from '../../../functions/local/local-server.js';
import { basePortBelowEphemeral } from '../../support/base-port.js';

/** Listen on a free loopback port whose next two ports are free too; returns the server and base. */
async function freeBase(): Promise<number> {
  for (let i = 0; i < 20; i++) {
    const base = basePortBelowEphemeral();
    const ok = await Promise.all([0, 1, 2].map((k) => new Promise<boolean>((res) => {
      const s = createServer();
      s.once('error', () => res(false));
      s.listen(base + k, '127.0.0.1', () => s.close(() => res(true)));
    })));
    if (ok.every(Boolean)) return base;
  }
  throw new Error('no three free consecutive ports');
}
const occupy = (port: number) => new Promise<Server>((res) => {
  const s = createServer();
  s.listen(port, '127.0.0.1', () => res(s));
});

describe('npm start: ports in use', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('checkPorts names PORT+1 (embedded DynamoDB) when that one is taken, and skips the store ports for external stores', async () => {
    const base = await freeBase();
    const taken = await occupy(base + 1);
    try {
      const err = await checkPorts({ port: base }).catch((e) => e);
      expect(err).toBeInstanceOf(PortInUseError);
      expect(err.port).toBe(base + 1);
      expect(err.message).toContain(`Port ${base + 1} (PORT+1, the embedded DynamoDB)`);
      expect(err.message).toContain('Set PORT');
      await expect(checkPorts({ port: base, dynamoEndpoint: 'http://127.0.0.1:1', s3Endpoint: 'http://127.0.0.1:2' })).resolves.toBeUndefined();
    } finally {
      taken.close();
    }
  });

  it('the start command prints one line naming PORT+2 and exits 1, without a stack', async () => {
    const base = await freeBase();
    const taken = await occupy(base + 2);
    const dataDir = mkdtempSync(join(tmpdir(), 'gleaner-ports-'));
    dirs.push(dataDir);
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'functions/local/main.ts'], {
        env: { ...process.env, PORT: String(base), GLEANER_DATA_DIR: dataDir, GLEANER_LOG_LEVEL: 'error' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (b) => (stderr += b));
      const code = await new Promise<number | null>((res) => child.on('exit', res));
      expect(code).toBe(1);
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Port ${base + 2} (PORT+2, the embedded S3) is already in use`);
      expect(stderr).not.toMatch(/\n\s+at /);
    } finally {
      taken.close();
    }
  });
});
