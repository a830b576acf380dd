import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the AWS services that have no local emulator (dynalite and s3rver cover
 * DynamoDB and S3): SQS (JSON protocol), EventBridge Scheduler (REST JSON), KMS (JSON 1.1) and
 * Bedrock Runtime Converse. It implements only the operations Gleaner's AWS adapters send, with
 * the service's real wire format, so the bundled handlers run their real SDK code paths. It
 * enforces no IAM: what a function is allowed to send is judged from its recorded calls
 * (test/support/aws-recorder.mjs) against its synthesized role.
 */
export interface SentMessage { queueUrl: string; body: string; messageId: string; delaySeconds?: number }
export interface StoredSchedule { name: string; group: string; input: Record<string, unknown> }

export interface AwsEmulator {
  endpoint: string;
  /** A queue URL served by this emulator (SQS clients send to the QueueUrl's host). */
  queueUrl(name: string): string;
  /** Messages sent to a queue, oldest first; `take` removes them. */
  take(queueUrl: string): SentMessage[];
  schedules: Map<string, StoredSchedule>;
  /** What the Converse operation answers (a model's text). */
  converseText: string;
  close(): Promise<void>;
}

const ACCOUNT = '123456789012';
// The SDK checks the MD5 of what it sent against the service's answer.
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** The emulator's ciphertext: the key ARN travels with the blob, as in real KMS ciphertexts. */
export const emulatorCiphertext = {
  encode: (keyId: string, plaintext: Buffer) => Buffer.from(JSON.stringify({ k: keyId, p: plaintext.toString('base64') })),
  keyOf: (blob: Uint8Array): string | undefined => {
    try {
      return (JSON.parse(Buffer.from(blob).toString('utf8')) as { k?: string }).k;
    } catch {
      return undefined;
    }
  },
};

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, value: unknown, contentType = 'application/x-amz-json-1.0', errorType?: string) {
  res.writeHead(status, { 'content-type': contentType, ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
  res.end(JSON.stringify(value));
}

/** Starts the emulator on an ephemeral loopback port. */
export async function startAwsEmulator(): Promise<AwsEmulator> {
  const queues = new Map<string, SentMessage[]>();
  const schedules = new Map<string, StoredSchedule>();
  let seq = 0;
  const state = { converseText: '' };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await body(req);
      const target = String(req.headers['x-amz-target'] ?? '');
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (target.startsWith('AmazonSQS.')) {
        const input = JSON.parse(text || '{}') as { QueueUrl: string; MessageBody?: string; DelaySeconds?: number; Entries?: { Id: string; MessageBody: string }[] };
        const q = queues.get(input.QueueUrl) ?? [];
        queues.set(input.QueueUrl, q);
        if (target === 'AmazonSQS.SendMessage') {
          const messageId = `msg-${++seq}`;
          q.push({ queueUrl: input.QueueUrl, body: input.MessageBody ?? '', messageId, delaySeconds: input.DelaySeconds });
          return json(res, 200, { MessageId: messageId, MD5OfMessageBody: md5(input.MessageBody ?? '') });
        }
        if (target === 'AmazonSQS.SendMessageBatch') {
          const ok = (input.Entries ?? []).map((e) => {
            const messageId = `msg-${++seq}`;
            q.push({ queueUrl: input.QueueUrl, body: e.MessageBody, messageId });
            return { Id: e.Id, MessageId: messageId, MD5OfMessageBody: md5(e.MessageBody) };
          });
          return json(res, 200, { Successful: ok, Failed: [] });
        }
        if (target === 'AmazonSQS.ChangeMessageVisibility' || target === 'AmazonSQS.DeleteMessage') return json(res, 200, {});
        return json(res, 400, { __type: 'InvalidAction', message: target }, undefined, 'InvalidAction');
      }
      if (target.startsWith('TrentService.')) {
        const input = JSON.parse(text || '{}') as { KeyId?: string; Plaintext?: string; CiphertextBlob?: string };
        const ct = 'application/x-amz-json-1.1';
        if (target === 'TrentService.Encrypt') {
          const blob = emulatorCiphertext.encode(input.KeyId!, Buffer.from(input.Plaintext ?? '', 'base64'));
          return json(res, 200, { CiphertextBlob: blob.toString('base64'), KeyId: input.KeyId }, ct);
        }
        if (target === 'TrentService.Decrypt') {
          const parsed = JSON.parse(Buffer.from(input.CiphertextBlob ?? '', 'base64').toString('utf8')) as { k: string; p: string };
          return json(res, 200, { Plaintext: parsed.p, KeyId: parsed.k }, ct);
        }
        return json(res, 400, { __type: 'UnsupportedOperationException' }, ct, 'UnsupportedOperationException');
      }
      const schedule = url.pathname.match(/^\/schedules\/([^/]+)$/);
      if (schedule) {
        const name = decodeURIComponent(schedule[1]!);
        const input = text ? (JSON.parse(text) as Record<string, unknown>) : {};
        const group = String(url.searchParams.get('groupName') ?? input.GroupName ?? 'default');
        const id = `${group}/${name}`;
        const arn = `arn:aws:scheduler:us-east-1:${ACCOUNT}:schedule/${id}`;
        const notFound = () => json(res, 404, { Message: `Schedule ${id} does not exist.` }, 'application/json', 'ResourceNotFoundException');
        if (req.method === 'POST') {
          if (schedules.has(id)) return json(res, 409, { Message: 'exists' }, 'application/json', 'ConflictException');
          schedules.set(id, { name, group, input });
          return json(res, 200, { ScheduleArn: arn }, 'application/json');
        }
        if (req.method === 'PUT') {
          if (!schedules.has(id)) return notFound();
          schedules.set(id, { name, group, input });
          return json(res, 200, { ScheduleArn: arn }, 'application/json');
        }
        if (req.method === 'DELETE') {
          if (!schedules.delete(id)) return notFound();
          return json(res, 200, {}, 'application/json');
        }
        if (req.method === 'GET') {
          const s = schedules.get(id);
          return s ? json(res, 200, { Arn: arn, Name: name, GroupName: group, ...s.input }, 'application/json') : notFound();
        }
      }
      if (/^\/model\/[^/]+\/converse$/.test(url.pathname)) {
        return json(res, 200, {
          output: { message: { role: 'assistant', content: [{ text: state.converseText }] } },
          stopReason: 'end_turn', usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 },
        }, 'application/json');
      }
      json(res, 404, { message: `aws-emulator: nothing serves ${req.method} ${url.pathname} ${target}` }, 'application/json', 'UnknownOperationException');
    })().catch((e: unknown) => json(res, 500, { message: String(e) }, 'application/json', 'InternalFailure'));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    queueUrl: (name) => `${endpoint}/${ACCOUNT}/${name}`,
    take(queueUrl) {
      const q = queues.get(queueUrl) ?? [];
      queues.set(queueUrl, []);
      return q;
    },
    schedules,
    get converseText() {
      return state.converseText;
    },
    set converseText(v: string) {
      state.converseText = v;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
