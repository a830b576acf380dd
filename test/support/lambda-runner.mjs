// The Lambda Node.js runtime as test/support/lambda-iam-harness.ts needs it, for many invocations in
// one process (started with `node --import ./aws-recorder.mjs`): each line on stdin asks for one
// invocation `{ n, bundle, eventFile, env }`, answered by one line on stdout, `<END>n <json>`.
//
// Each invocation loads its bundle afresh (the import's URL names the invocation), with exactly the
// function's environment in process.env: a cold start of that function, as a process of its own
// gave it, without a Node start and the AWS SDK's packages loaded again for every call (the bundles
// keep `@aws-sdk/client-*` external; Node's module cache shares them, stateless, between calls).
// Invocations run one at a time. The runtime's `awslambda` global is provided before a bundle
// loads; a handler marked by `streamifyResponse` is called with a response stream, and
// `HttpResponseStream.from` writes the metadata JSON and the 8-NUL delimiter ahead of the body, as
// the runtime sends them to API Gateway. The runner splits them again: `{ statusCode, headers,
// body, streamed }`. What the function prints goes to stdout and stderr before the answer, and each
// stream ends the invocation's part with `<END>n`.
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const END = '\u0000gleaner-invocation-end ';
const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
const DELIMITER = Buffer.alloc(8);
globalThis.awslambda = Object.assign(globalThis.awslambda ?? {}, {
  streamifyResponse: (fn) => Object.assign(fn, { [STREAMING]: 'response' }),
  HttpResponseStream: { from(stream, metadata) { stream.write(JSON.stringify(metadata)); stream.write(DELIMITER); return stream; } },
});

async function invoke({ n, bundle, eventFile, env }) {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  const { handler } = await import(`${pathToFileURL(bundle).href}?invocation=${n}`);
  const event = JSON.parse(readFileSync(eventFile, 'utf8'));
  const context = { getRemainingTimeInMillis: () => 29000, awsRequestId: 'test' };
  let r;
  if (handler[STREAMING]) {
    const chunks = [];
    const sink = new Writable({ write(c, _e, cb) { chunks.push(Buffer.from(c)); cb(); } });
    await handler(event, sink, context);
    const all = Buffer.concat(chunks);
    const cut = all.indexOf(DELIMITER);
    r = { ...JSON.parse(all.subarray(0, cut).toString('utf8')), body: all.subarray(cut + DELIMITER.length).toString('utf8'), streamed: true };
  } else r = await handler(event, context);
  // SDK commands the function started and has not seen answered yet are still its own (recorded to
  // its file); a process of its own would have waited for them before it exited.
  await globalThis.__gleanerAwsRecorder?.settled();
  return r ?? null;
}

for await (const line of createInterface({ input: process.stdin })) {
  const req = JSON.parse(line);
  let answer;
  try {
    answer = { result: await invoke(req) };
  } catch (err) {
    answer = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
  }
  process.stderr.write(`\n${END}${req.n}\n`);
  process.stdout.write(`\n${END}${req.n} ${JSON.stringify(answer)}\n`);
}
