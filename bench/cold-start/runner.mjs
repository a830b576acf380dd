// One cold start, as Lambda performs it: a fresh process imports the bundle (the Init phase), then
// serves the first request. Prints one JSON line: import time, and time until the first response
// (import + the handler made ready: composition root, middleware, first request handled).
// Plain JavaScript on purpose: no loader between Node and the bundle.
const [bundle, eventJson] = process.argv.slice(2);
const t0 = performance.now();
const c0 = process.cpuUsage();
const mod = await import(bundle);
const t1 = performance.now();
const ctx = { getRemainingTimeInMillis: () => 29_000, awsRequestId: 'cold-start', functionName: 'bench', callbackWaitsForEmptyEventLoop: true };
const res = await mod.handler(JSON.parse(eventJson), ctx);
const t2 = performance.now();
const cpu = process.cpuUsage(c0);
process.stdout.write(`\n${JSON.stringify({ importMs: t1 - t0, readyMs: t2 - t0, cpuMs: (cpu.user + cpu.system) / 1000, status: res?.statusCode })}\n`);
process.exit(0);
