/**
 * A value built on first use and shared by every later caller; a build that fails is tried again
 * on the next use rather than remembered. The Lambda composition root wraps each AWS SDK client
 * in one, so a function creates (and loads the SDK of) only the clients it actually uses; API
 * handlers load their contracts and core modules through it (`loadOnce`, http/pipeline/api.ts).
 */
export function lazy<T>(build: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () =>
    (value ??= build().catch((e: unknown) => {
      value = undefined;
      throw e;
    }));
}
