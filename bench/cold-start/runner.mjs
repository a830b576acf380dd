// One cold start, as Lambda performs it: a fresh process imports the bundle (the Init phase), then
// serves the first request. Prints one JSON line: import time, and time until the first response
// (import + the handler made ready: composition root, middleware, first request handled).
// Plain JavaScript on purpose: no loader between Node and the bundle.
import { PassThrough } from 'node:stream';

const [bundle, eventJson] = process.argv.slice(2);
// The runtime's response streaming (`awslambda` global) for functions that stream (routes.ts
// `stream: true`): the handler gets a response stream, whose prelude carries the status.
const STREAMING = Symbol.for('gleaner.bench.streaming');
globalThis.awslambda = {
  streamifyResponse: (fn) => Object.assign(fn, { [STREAMING]: true }),
  HttpResponseStream: { from: (stream, prelude) => Object.assign(stream, { prelude }) },
};
const t0 = performance.now();
const c0 = process.cpuUsage();
const mod = await import(bundle);
const t1 = performance.now();
const ctx = { getRemainingTimeInMillis: () => 29_000, awsRequestId: 'cold-start', functionName: 'bench', callbackWaitsForEmptyEventLoop: true };
let res;
if (mod.handler[STREAMING]) {
  const out = new PassThrough();
  out.resume();
  await mod.handler(JSON.parse(eventJson), out, ctx);
  res = out.prelude;
} else res = await mod.handler(JSON.parse(eventJson), ctx);
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
process.stdout.write(`\n${JSON.stringify({ importMs: t1 - t0, readyMs: t2 - t0, cpuMs: (cpu.user + cpu.system) / 1000, status: res?.statusCode })}\n`);
process.exit(0);
