import { createHmac, createHash } from 'node:crypto';
import http from 'node:http';
import { PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';

/** Attempts per call on a network error or a 5xx, as the SDK client it stands in for (maxAttempts 3). */
const MAX_ATTEMPTS = 3;

/**
 * The S3 client of the local service (s3rver): PutObject goes out as the S3 REST request itself
 * (a path-style PUT with its content type, signed with SigV4 over an unsigned payload) on a
 * keep-alive agent; every other command goes through the SDK as before.
 *
 * Why: a crawl writes its pages' items to S3 a batch at a time and its raw log a slice at a time,
 * and the SDK's per-call work (a middleware stack resolved on every call, which S3 clients must do:
 * sdk-options.ts, endpoint rules, schema serde, user agent, retry strategy) cost about 1.4 s of
 * the crawl thread's CPU on the 10,000-page bench, more than the puts themselves. The request is
 * the one the SDK sends to a path-style endpoint (same method, path, content type and body;
 * errors by S3's code as the SDK names them: NoSuchBucket, ...), so the Blobs adapter and
 * everything above it are unchanged. On AWS the functions use the SDK client (aws-deps.ts).
 */
export class LocalS3Client extends S3Client {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  private readonly host: string;
  private readonly hostname: string;
  private readonly port: number;
  private readonly basePath: string;
  private readonly region: string;
  private readonly accessKeyId: string;
  private readonly secretAccessKey: string;
  private signingKey: { day: string; key: Buffer } | undefined;

  constructor(config: S3ClientConfig & { endpoint: string; region: string; credentials: { accessKeyId: string; secretAccessKey: string } }) {
    super(config);
    const u = new URL(config.endpoint);
    if (u.protocol !== 'http:') throw new Error(`LocalS3Client speaks plain http to a local store, not ${u.protocol}`);
    this.host = u.host;
    this.hostname = u.hostname;
    this.port = Number(u.port || 80);
    this.basePath = u.pathname.replace(/\/$/, '');
    this.region = config.region;
    this.accessKeyId = config.credentials.accessKeyId;
    this.secretAccessKey = config.credentials.secretAccessKey;
  }

  // Same call shape as the SDK's overloads; what it does not speak goes to the SDK.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override send(command: any, ...rest: any[]): any {
    const input = command instanceof PutObjectCommand && !rest.length ? command.input : undefined;
    if (!input || !input.Bucket || !input.Key || !(typeof input.Body === 'string' || input.Body instanceof Uint8Array) || !onlyPlainFields(input))
      return (super.send as (...a: unknown[]) => unknown).apply(this, [command, ...rest]);
    return this.put(input.Bucket, input.Key, input.Body, input.ContentType);
  }

  override destroy(): void {
    this.agent.destroy();
    super.destroy();
  }

  private async put(bucket: string, key: string, body: string | Uint8Array, contentType: string | undefined): Promise<unknown> {
    const path = `${this.basePath}/${encodeSegment(bucket)}/${key.split('/').map(encodeSegment).join('/')}`;
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    for (let attempt = 1; ; attempt++) {
      let res: { status: number; text: string; etag?: string };
      try {
        res = await this.request('PUT', path, bytes, contentType);
      } catch (err) {
        if (attempt < MAX_ATTEMPTS) {
          await backoff(attempt);
          continue;
        }
        throw err;
      }
      if (res.status >= 200 && res.status < 300) return { ETag: res.etag, $metadata: { httpStatusCode: res.status, attempts: attempt } };
      if (res.status >= 500 && attempt < MAX_ATTEMPTS) {
        await backoff(attempt);
        continue;
      }
      throw serviceError(res.status, res.text);
    }
  }

  private request(method: string, path: string, body: Uint8Array, contentType: string | undefined): Promise<{ status: number; text: string; etag?: string }> {
    const headers = this.sign(method, path, body.byteLength, contentType);
    return new Promise((resolve, reject) => {
      const req = http.request({ host: this.hostname, port: this.port, path, method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), etag: res.headers.etag }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  /** SigV4 headers for one request, its payload unsigned (the signing key is derived once a day). */
  private sign(method: string, path: string, length: number, contentType: string | undefined): Record<string, string> {
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const day = amzDate.slice(0, 8);
    const payload = 'UNSIGNED-PAYLOAD';
    const headers: Record<string, string> = { ...(contentType ? { 'content-type': contentType } : {}), host: this.host, 'x-amz-content-sha256': payload, 'x-amz-date': amzDate };
    const names = Object.keys(headers).sort();
    const canonical = `${method}\n${path}\n\n${names.map((n) => `${n}:${headers[n]}\n`).join('')}\n${names.join(';')}\n${payload}`;
    const scope = `${day}/${this.region}/s3/aws4_request`;
    if (this.signingKey?.day !== day) {
      const k = [day, this.region, 's3', 'aws4_request'].reduce<Buffer | string>((key, part) => hmac(key, part), `AWS4${this.secretAccessKey}`);
      this.signingKey = { day, key: k as Buffer };
    }
    const signature = hmac(this.signingKey.key, `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${createHash('sha256').update(canonical).digest('hex')}`).toString('hex');
    return {
      ...headers,
      'content-length': String(length),
      authorization: `AWS4-HMAC-SHA256 Credential=${this.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
    };
  }
}

/** The PutObject fields this client sends; a command with any other (metadata, checksums, ACLs, ...) goes to the SDK. */
const PLAIN = new Set(['Bucket', 'Key', 'Body', 'ContentType']);
const onlyPlainFields = (input: object) => Object.entries(input).every(([k, v]) => PLAIN.has(k) || v === undefined);

/** A path segment as S3's SigV4 canonical URI has it (RFC 3986 unreserved characters kept). */
const encodeSegment = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 10 * 2 ** attempt));

/** An S3 error named by its code (`NoSuchBucket`, `AccessDenied`, ...), as the SDK names it. */
function serviceError(status: number, text: string): Error {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  const err = new Error(message ?? (text.slice(0, 200) || `S3 answered ${status}`));
  err.name = code || `HTTP${status}`;
  return Object.assign(err, { Code: code, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });
}
