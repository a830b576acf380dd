// Preloaded (`node --import`) into the process that runs bundled Lambda handlers
// (lambda-runner.mjs): records every AWS SDK command a function sends, as one JSON line per
// command, to the file named by GLEANER_TEST_AWS_RECORD when it is sent (the runner sets each
// invocation's own), and keeps the commands not yet answered for the runner to wait on. The bundles keep the `@aws-sdk/client-*` packages external (as on Lambda), so every client
// they create extends the one `Client` class of @smithy/core resolved from the repository; its
// `send` is wrapped here. Also refuses any request to a non-loopback host: tests never reach AWS.
import { appendFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(new URL('../../package.json', import.meta.url));
const { Client } = require('@smithy/core/client');

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/** Only what decides the IAM action and resource; never item bodies or plaintexts. */
function pick(input) {
  const i = input ?? {};
  const o = {};
  for (const k of ['TableName', 'IndexName', 'Bucket', 'Key', 'Prefix', 'QueueUrl', 'KeyId', 'Name', 'GroupName', 'modelId', 'CopySource']) {
    if (i[k] !== undefined) o[k] = i[k];
  }
  if (i.RequestItems) o.RequestItems = Object.keys(i.RequestItems);
  if (i.TransactItems) o.TransactItems = i.TransactItems.map((t) => Object.fromEntries(Object.entries(t).map(([op, v]) => [op, v?.TableName])));
  if (i.Delete?.Objects) o.DeleteKeys = i.Delete.Objects.map((x) => x.Key);
  if (i.Target?.RoleArn) o.TargetRoleArn = i.Target.RoleArn;
  if (i.CiphertextBlob) o.CiphertextBlob = Buffer.from(i.CiphertextBlob).toString('base64');
  return o;
}

/** Commands sent and not yet answered or failed. */
const pending = new Set();
globalThis.__gleanerAwsRecorder = {
  /** Resolves once no command is in flight (ones a settling command starts included). */
  async settled() {
    while (pending.size) await Promise.allSettled([...pending]);
  },
};

const guarded = new WeakSet();
const send = Client.prototype.send;
Client.prototype.send = function (command, ...rest) {
  if (!guarded.has(this)) {
    guarded.add(this);
    this.middlewareStack.add(
      (next) => async (args) => {
        const host = args.request?.hostname;
        if (host && !LOOPBACK.has(host)) throw new Error(`aws-recorder: refusing a request to non-loopback host ${host}`);
        return next(args);
      },
      { step: 'finalizeRequest', name: 'gleanerLoopbackOnly', override: true },
    );
  }
  const out = process.env.GLEANER_TEST_AWS_RECORD;
  if (out) {
    const line = { service: this.config?.serviceId ?? 'unknown', command: command?.constructor?.name ?? 'unknown', input: pick(command?.input) };
    appendFileSync(out, JSON.stringify(line) + '\n');
  }
  const sent = send.call(this, command, ...rest);
  if (!(sent instanceof Promise)) return sent;
  pending.add(sent);
  const forget = () => pending.delete(sent);
  sent.then(forget, forget);
  return sent;
};
