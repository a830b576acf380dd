import { createRequire } from 'node:module';
import { createHash } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import { dirname } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

interface StoredObject {
  bucket: string;
  key: string;
  content: Buffer | Readable;
  metadata: Record<string, string>;
}

interface FilesystemStoreProto {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: StoredObject): Promise<{ size: number; md5: string }>;
  deleteObject(bucket: string, key: string): Promise<void>;
  __gleanerHardened?: boolean;
}

const isMissing = (e: unknown) => (e as NodeJS.ErrnoException | null)?.code === 'ENOENT';

/** Write `content` to `path`, every stream's error handled; md5 and size of what was written. */
async function writeObjectFile(path: string, content: Buffer | Readable): Promise<{ size: number; md5: string }> {
  const md5 = createHash('md5');
  if (Buffer.isBuffer(content)) {
    await fsp.writeFile(path, content);
    md5.update(content);
    return { size: content.length, md5: md5.digest('hex') };
  }
  let size = 0;
  await pipeline(
    content,
    new Transform({
      transform(chunk: Buffer, _enc, cb) {
        md5.update(chunk);
        size += chunk.length;
        cb(null, chunk);
      },
    }),
    createWriteStream(path),
  );
  return { size, md5: md5.digest('hex') };
}

/**
 * s3rver's filesystem store keeps each object as files in a folder per key prefix. Two of its
 * habits ended `npm start` under parallel scrapes:
 *
 * - `deleteObject` removed a key's folder once it looked empty, while `putObject` of another key
 *   in the same folder (sync scrape results all live under `tenants/<t>/tasks/`) had just created
 *   it and was about to open its file: the open failed with ENOENT;
 * - `putObject` piped into a write stream with no `error` listener, so that ENOENT was an
 *   unhandled `error` event and Node exited, taking every tenant's work with it.
 *
 * S3 has no folders, and the service lists storage from the table, never by walking folders, so
 * an empty folder left behind changes nothing a client can see. Hardened here (idempotent):
 * deleting an object removes its files only; writing one creates its folder and handles every
 * stream error (an error rejects the request, which the SDK retries), and a write that still
 * finds its folder gone (a bucket being emptied) recreates it and tries again.
 */
export function hardenS3rverStore(): void {
  const fromHere = createRequire(import.meta.url);
  const FilesystemStore = createRequire(fromHere.resolve('s3rver'))('./stores/filesystem') as { prototype: FilesystemStoreProto };
  const proto = FilesystemStore.prototype;
  if (proto.__gleanerHardened) return;
  proto.__gleanerHardened = true;

  proto.putObject = async function putObject(this: FilesystemStoreProto, object: StoredObject) {
    const path = this.getResourcePath(object.bucket, object.key, 'object');
    let written: { size: number; md5: string } | undefined;
    for (let attempt = 0; !written; attempt++) {
      await fsp.mkdir(dirname(path), { recursive: true });
      try {
        written = await writeObjectFile(path, object.content);
      } catch (e) {
        // A stream body cannot be replayed; a buffer can.
        if (!isMissing(e) || attempt >= 2 || !Buffer.isBuffer(object.content)) throw e;
      }
    }
    await this.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  };

  proto.deleteObject = async function deleteObject(this: FilesystemStoreProto, bucket: string, key: string) {
    await Promise.all(
      ['object', 'object.md5', 'metadata.json'].map((resource) =>
        fsp.unlink(this.getResourcePath(bucket, key, resource)).catch((e: unknown) => {
          if (!isMissing(e)) throw e;
        }),
      ),
    );
  };
}
