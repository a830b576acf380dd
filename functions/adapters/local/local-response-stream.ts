import { PassThrough } from 'node:stream';
import type { StreamingRuntime, StreamPrelude } from '../aws/lambda-streaming.js';

/**
 * The response stream a streaming handler writes to outside Lambda: a PassThrough whose
 * `prelude` resolves with the status and headers (given through {@link localStreaming}'s `from`,
 * or 200 with no headers if the handler wrote without one), so a server can answer with them and
 * pipe the body, chunk by chunk, as it is written.
 */
export class LocalResponseStream extends PassThrough {
  readonly prelude: Promise<StreamPrelude>;
  private settle!: (p: StreamPrelude) => void;
  private settled = false;

  constructor() {
    super();
    this.prelude = new Promise((resolve) => (this.settle = resolve));
    const fallback = () => this.setPrelude({ statusCode: 200, headers: {} });
    this.once('finish', fallback);
    this.once('close', fallback);
  }

  setPrelude(p: StreamPrelude): void {
    if (this.settled) return;
    this.settled = true;
    this.settle(p);
  }

  override _write(chunk: unknown, enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.setPrelude({ statusCode: 200, headers: {} });
    super._write(chunk, enc, cb);
  }
}

/** The streaming runtime outside Lambda: handlers stay plain functions, the prelude goes to a {@link LocalResponseStream}. */
export const localStreaming: StreamingRuntime = {
  streamify: (fn) => fn,
  from(stream, prelude) {
    if (stream instanceof LocalResponseStream) stream.setPrelude(prelude);
    return stream;
  },
};
