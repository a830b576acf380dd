import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RECORDER = fileURLToPath(new URL('./aws-recorder.mjs', import.meta.url));
const RUNNER = fileURLToPath(new URL('./lambda-runner.mjs', import.meta.url));
/** Ends an invocation's part of the runner's stdout and stderr (lambda-runner.mjs). */
const END = '\u0000gleaner-invocation-end ';

export interface RunnerAnswer<R> {
  result: R;
  /** What the function printed (stdout, then stderr). */
  logs: string;
}

interface Waiting {
  n: number;
  resolve: (a: RunnerAnswer<unknown>) => void;
  reject: (e: Error) => void;
}

/**
 * Processes of lambda-runner.mjs (with the SDK recorder preloaded) that run bundled handlers, each
 * invocation a cold start of its bundle with the function's own environment (see the runner). A
 * process runs one invocation at a time: a call made while another is running (a route waiting for
 * a worker) gets a process of its own. Started as needed; `close` ends them.
 */
export class LambdaRunners {
  private readonly idle: RunnerProcess[] = [];
  private readonly all: RunnerProcess[] = [];

  constructor(private readonly cwd: string) {}

  /** Runs `bundle`'s handler on the event in `eventFile` with exactly `env` as its environment. */
  async invoke<R>(bundle: string, eventFile: string, env: Record<string, string>): Promise<RunnerAnswer<R>> {
    let p = this.idle.pop();
    if (!p) this.all.push((p = new RunnerProcess(this.cwd)));
    try {
      return (await p.invoke(bundle, eventFile, env)) as RunnerAnswer<R>;
    } finally {
      this.idle.push(p);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.all.splice(0).map((p) => p.close()));
    this.idle.length = 0;
  }
}

/** One runner process: one invocation at a time (LambdaRunners sees to it). */
class RunnerProcess {
  private child?: ChildProcessWithoutNullStreams;
  private n = 0;
  private out = '';
  private err = '';
  private waiting?: Waiting;

  constructor(private readonly cwd: string) {}

  invoke(bundle: string, eventFile: string, env: Record<string, string>): Promise<RunnerAnswer<unknown>> {
    const child = (this.child ??= this.start());
    const n = ++this.n;
    return new Promise((resolve, reject) => {
      this.waiting = { n, resolve, reject };
      child.stdin.write(`${JSON.stringify({ n, bundle, eventFile, env })}\n`);
    });
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(process.execPath, ['--import', RECORDER, RUNNER], {
      cwd: this.cwd,
      env: { PATH: process.env.PATH ?? '', NODE_OPTIONS: '', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (d: string) => ((this.out += d), this.check()));
    child.stderr.on('data', (d: string) => ((this.err += d), this.check()));
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = undefined;
      const w = this.waiting;
      this.waiting = undefined;
      w?.reject(new Error(`the Lambda runner exited (${code ?? signal}) during an invocation:\n${this.out}\n${this.err}`));
    });
    return child;
  }

  /** Settles the waiting invocation once both streams have ended its part. */
  private check(): void {
    const w = this.waiting;
    if (!w) return;
    const errEnd = this.err.indexOf(`\n${END}${w.n}\n`);
    const outMark = this.out.indexOf(`\n${END}${w.n} `);
    if (errEnd < 0 || outMark < 0) return;
    const outEnd = this.out.indexOf('\n', outMark + 1);
    if (outEnd < 0) return;
    const answer = JSON.parse(this.out.slice(outMark + END.length + String(w.n).length + 2, outEnd)) as { result?: unknown; error?: string };
    const logs = `${this.out.slice(0, outMark).trim()}\n${this.err.slice(0, errEnd).trim()}`.trim();
    this.out = this.out.slice(outEnd + 1);
    this.err = this.err.slice(errEnd + END.length + String(w.n).length + 2);
    this.waiting = undefined;
    if (answer.error !== undefined) w.reject(new Error(`invocation failed: ${answer.error}\n${logs}`));
    else w.resolve({ result: answer.result, logs });
  }
}
