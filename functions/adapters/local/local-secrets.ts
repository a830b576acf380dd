import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Secrets } from '../../ports/secrets.js';

/**
 * AES-256-GCM with a key kept in the data dir (mode 0600). The encryption context is bound
 * as additional authenticated data, like KMS's, so a ciphertext moved to another tenant fails.
 */
export class LocalSecrets implements Secrets {
  private readonly key: Buffer;
  constructor(keyFile: string) {
    if (existsSync(keyFile)) this.key = Buffer.from(readFileSync(keyFile, 'utf8').trim(), 'base64');
    else {
      mkdirSync(dirname(keyFile), { recursive: true });
      this.key = randomBytes(32);
      writeFileSync(keyFile, this.key.toString('base64'), { mode: 0o600 });
    }
  }
  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(aad(context)));
    const body = Buffer.concat([c.update(plaintext, 'utf8'), c.final()]);
    return `v1.${Buffer.concat([iv, c.getAuthTag(), body]).toString('base64')}`;
  }
  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const raw = Buffer.from(ciphertext.replace(/^v1\./, ''), 'base64');
    const d = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    d.setAAD(Buffer.from(aad(context)));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  }
}
const aad = (c: Record<string, string>) => JSON.stringify(Object.keys(c).sort().map((k) => [k, c[k]]));
