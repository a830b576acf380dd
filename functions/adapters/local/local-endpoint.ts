import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';

/** Where a local store listens and how requests to it are signed (the SDK client config's fields). */
export interface LocalEndpointConfig {
  endpoint: string;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
}

export interface LocalResponse {
  status: number;
  text: string;
  etag?: string;
  /** Attempts it took (as the SDK's `$metadata.attempts`). */
  attempts: number;
}

/** Attempts per call on a network error or a 5xx, as the SDK clients they stand in for (maxAttempts 3). */
const MAX_ATTEMPTS = 3;

/**
 * A local store's HTTP endpoint (dynalite, s3rver, or DynamoDB Local) as the local clients speak
 * to it without the SDK's per-call machinery (local-dynamo-client.ts, local-s3-client.ts): plain
 * http on a keep-alive agent, each request signed with SigV4 (the signing key derived once a day),
 * a network error or a 5xx tried again as the SDK does.
 */
export class LocalEndpoint {
  private readonly agent: http.Agent;
  private readonly host: string;
  private readonly hostname: string;
  private readonly port: number;
  /** The endpoint's path ('/' when it has none). */
  readonly pathname: string;
  private readonly region: string;
  private readonly accessKeyId: string;
  private readonly secretAccessKey: string;
  private signingKey: { day: string; key: Buffer } | undefined;

  constructor(private readonly service: string, config: LocalEndpointConfig, opts: { client: string; maxSockets: number }) {
    const u = new URL(config.endpoint);
    if (u.protocol !== 'http:') throw new Error(`${opts.client} speaks plain http to a local store, not ${u.protocol}`);
    this.agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets });
    this.host = u.host;
    this.hostname = u.hostname;
    this.port = Number(u.port || 80);
    this.pathname = u.pathname || '/';
    this.region = config.region;
    this.accessKeyId = config.credentials.accessKeyId;
    this.secretAccessKey = config.credentials.secretAccessKey;
  }

  /**
   * One call: `headers` (lower-case names, besides host and x-amz-date) and the payload's hash are
   * signed. The answer of the last attempt is returned, whatever its status; a network error on
   * the last attempt is thrown.
   */
  async send(method: string, path: string, headers: Record<string, string>, body: string | Uint8Array, payloadHash: string): Promise<LocalResponse> {
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
    for (let attempt = 1; ; attempt++) {
      let res: Omit<LocalResponse, 'attempts'>;
      try {
        res = await this.request(method, path, this.sign(method, path, headers, payloadHash, length), body);
      } catch (err) {
        if (attempt < MAX_ATTEMPTS) {
          await backoff(attempt);
          continue;
        }
        throw err;
      }
      if (res.status >= 500 && attempt < MAX_ATTEMPTS) {
        await backoff(attempt);
        continue;
      }
      return { ...res, attempts: attempt };
    }
  }

  destroy(): void {
    this.agent.destroy();
  }

  private request(method: string, path: string, headers: Record<string, string>, body: string | Uint8Array): Promise<Omit<LocalResponse, 'attempts'>> {
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

  /** SigV4 headers for one request (no query string). */
  private sign(method: string, path: string, extra: Record<string, string>, payloadHash: string, length: number): Record<string, string> {
    const amzDate = new Date().toISOString().replace(/[-:]|\.\d{3}/g, '');
    const day = amzDate.slice(0, 8);
    const headers: Record<string, string> = { ...extra, host: this.host, 'x-amz-date': amzDate };
    const names = Object.keys(headers).sort();
    const canonical = `${method}\n${path}\n\n${names.map((n) => `${n}:${headers[n]}\n`).join('')}\n${names.join(';')}\n${payloadHash}`;
    const scope = `${day}/${this.region}/${this.service}/aws4_request`;
    if (this.signingKey?.day !== day) {
      const k = [day, this.region, this.service, 'aws4_request'].reduce<Buffer | string>((key, part) => hmac(key, part), `AWS4${this.secretAccessKey}`);
      this.signingKey = { day, key: k as Buffer };
    }
    const signature = hmac(this.signingKey.key, `AWS4-HMAC-SHA256\n${amzDate}\n${scope}\n${sha256(canonical)}`).toString('hex');
    return {
      ...headers,
      'content-length': String(length),
      authorization: `AWS4-HMAC-SHA256 Credential=${this.accessKeyId}/${scope}, SignedHeaders=${names.join(';')}, Signature=${signature}`,
    };
  }
}

export const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex');
const hmac = (key: Buffer | string, s: string) => createHmac('sha256', key).update(s).digest();
const backoff = (attempt: number) => new Promise((r) => setTimeout(r, 10 * 2 ** attempt));
