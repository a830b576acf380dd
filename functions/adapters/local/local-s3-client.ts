import { PutObjectCommand, S3Client, type S3ClientConfig } from '@aws-sdk/client-s3';
import { LocalEndpoint, type LocalEndpointConfig } from './local-endpoint.js';

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
  private readonly store: LocalEndpoint;
  private readonly basePath: string;

  constructor(config: S3ClientConfig & LocalEndpointConfig) {
    super(config);
    this.store = new LocalEndpoint('s3', config, { client: 'LocalS3Client', maxSockets: 16 });
    this.basePath = this.store.pathname.replace(/\/$/, '');
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
    this.store.destroy();
    super.destroy();
  }

  private async put(bucket: string, key: string, body: string | Uint8Array, contentType: string | undefined): Promise<unknown> {
    const path = `${this.basePath}/${encodeSegment(bucket)}/${key.split('/').map(encodeSegment).join('/')}`;
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    const payload = 'UNSIGNED-PAYLOAD';
    const res = await this.store.send('PUT', path, { ...(contentType ? { 'content-type': contentType } : {}), 'x-amz-content-sha256': payload }, bytes, payload);
    if (res.status >= 200 && res.status < 300) return { ETag: res.etag, $metadata: { httpStatusCode: res.status, attempts: res.attempts } };
    throw serviceError(res.status, res.text);
  }
}

/** The PutObject fields this client sends; a command with any other (metadata, checksums, ACLs, ...) goes to the SDK. */
const PLAIN = new Set(['Bucket', 'Key', 'Body', 'ContentType']);
const onlyPlainFields = (input: object) => Object.entries(input).every(([k, v]) => PLAIN.has(k) || v === undefined);

/** A path segment as S3's SigV4 canonical URI has it (RFC 3986 unreserved characters kept). */
const encodeSegment = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** An S3 error named by its code (`NoSuchBucket`, `AccessDenied`, ...), as the SDK names it. */
function serviceError(status: number, text: string): Error {
  const code = /<Code>([^<]*)<\/Code>/.exec(text)?.[1];
  const message = /<Message>([^<]*)<\/Message>/.exec(text)?.[1];
  const err = new Error(message ?? (text.slice(0, 200) || `S3 answered ${status}`));
  err.name = code || `HTTP${status}`;
  return Object.assign(err, { Code: code, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });
}
