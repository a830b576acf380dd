import { spawn, type ChildProcess } from 'node:child_process';
import { DynamoTable } from '../../../functions/adapters/aws/dynamo-table.js';
import { localDynamoClient } from '../../../functions/local/embedded-stores.js';
import type { Table } from '../../../functions/ports/table.js';
import { HEAP_FLAG } from '../../../functions/local/heap-bound.js';
import { basePortBelowEphemeral } from '../../support/base-port.js';

/** A fixed admin key, so the same key works across a restart of the process. */
export const KEY = 'glr_crawlKillTest0123456789abcdefghij';

/**
 * The local service as `npm start` runs it (functions/local/main.ts through tsx), in its own
 * process on its own data directory, so a test can SIGKILL it and start it again on the same data.
 */
export class LocalProcess {
  private child: ChildProcess | undefined;
  readonly port = basePortBelowEphemeral();
  output = '';

  constructor(private readonly env: Record<string, string>) {}

  /** The service process's pid while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [HEAP_FLAG, '--import', 'tsx', 'functions/local/main.ts'], {
        env: { ...process.env, GLEANER_LOG_LEVEL: 'warn', GLEANER_BOOTSTRAP_API_KEY: KEY, ...this.env, PORT: String(this.port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      let out = '';
      const timer = setTimeout(() => reject(new Error(`no banner:\n${out}`)), 90_000);
      child.stdout!.on('data', (b) => {
        out += b;
        this.output += b;
        if (out.includes('Admin API key')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.stderr!.on('data', (b) => (this.output += b));
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`exited ${code ?? signal}:\n${out}`));
      });
    });
  }

  /** kill -9: no shutdown handler runs, whatever was in flight is cut off. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const c = this.child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    this.child = undefined;
    await new Promise<void>((r) => {
      c.once('exit', () => r());
      c.kill(signal);
    });
  }

  async call(path: string, init: { method?: string; json?: unknown } = {}): Promise<{ status: number; body: any; text: string }> {
    const res = await fetch(`http://127.0.0.1:${this.port}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${KEY}`, ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: init.json !== undefined ? JSON.stringify(init.json) : undefined,
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      /* NDJSON or CSV */
    }
    return { status: res.status, body, text };
  }

  /** The process's table (dynalite on PORT+1), as the operator CLI reaches it. */
  table(): Table {
    return new DynamoTable(this.env.GLEANER_TABLE ?? 'gleaner', localDynamoClient(`http://127.0.0.1:${this.port + 1}`));
  }
}
