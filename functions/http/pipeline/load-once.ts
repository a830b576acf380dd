/**
 * `loadOnce(() => import('../core/…'))`: modules a handler needs only once a request gets past
 * authentication, imported then rather than at init (Lambda's Init phase), so a cold start does not
 * evaluate them (their zod schemas above all). Later calls get the same promise; a failed load is
 * retried on the next call.
 *
 * In a CDK bundle esbuild turns such an `import()` of a bundled module into a deferred evaluation
 * of that module (it stays in the one file), provided no module evaluated at init imports it
 * statically: test/cdk/api-cold-start.test.ts checks what each function evaluates at init.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}
