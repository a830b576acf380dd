import { describe, expect, it } from 'vitest';
import type { Context } from 'aws-lambda';
import { middlewareChain, TIMEOUT_EARLY_MS, type Middleware } from '../../../functions/http/pipeline/middleware-chain.js';

// The API pipeline's lifecycle (in place of @middy/core): the order of befores, afters and
// onErrors, error recovery and the early timeout are what api.ts relies on.
type State = { trail: string[] };
const ctx = (left?: number) => (left === undefined ? {} : { getRemainingTimeInMillis: () => left }) as Context;

const recorder = (name: string, opts: { failBefore?: boolean; failAfter?: boolean; recover?: boolean } = {}): Middleware<string, string, State> => ({
  before: (r) => {
    r.internal.trail.push(`${name}.before`);
    if (opts.failBefore) throw new Error(`${name} refused`);
  },
  after: (r) => {
    r.internal.trail.push(`${name}.after(${r.response})`);
    if (opts.failAfter) throw new Error(`${name} failed after`);
  },
  onError: (r) => {
    r.internal.trail.push(`${name}.onError(${(r.error as Error).message})`);
    if (opts.recover) r.response = `recovered by ${name}`;
  },
});

describe('middlewareChain', () => {
  it('runs befores in order, the handler, then afters in reverse, and returns the response', async () => {
    const state: State = { trail: [] };
    const h = middlewareChain([recorder('a'), recorder('b')], async (e: string) => (state.trail.push(`handler(${e})`), `ok:${e}`), () => state);
    await expect(h('x', ctx())).resolves.toBe('ok:x');
    expect(state.trail).toEqual(['a.before', 'b.before', 'handler(x)', 'b.after(ok:x)', 'a.after(ok:x)']);
  });

  it('on an error in a before, skips the handler and runs the onErrors in reverse; one of them answers', async () => {
    const state: State = { trail: [] };
    const h = middlewareChain([recorder('a', { recover: true }), recorder('b', { failBefore: true })], async () => 'never', () => state);
    await expect(h('x', ctx())).resolves.toBe('recovered by a');
    expect(state.trail).toEqual(['a.before', 'b.before', 'b.onError(b refused)', 'a.onError(b refused)']);
  });

  it('an error in an after clears the response before the onErrors run', async () => {
    const state: State = { trail: [] };
    let seen: unknown = 'unset';
    const h = middlewareChain(
      [{ onError: (r) => void (seen = r.response) }, recorder('b', { failAfter: true })],
      async () => 'first answer',
      () => state,
    );
    await expect(h('x', ctx())).rejects.toThrow('b failed after');
    expect(seen).toBeUndefined();
  });

  it('throws the error on when no onError sets a response', async () => {
    const h = middlewareChain<string, string, State>([recorder('a')], async () => {
      throw new Error('core failed');
    }, () => ({ trail: [] }));
    await expect(h('x', ctx())).rejects.toThrow('core failed');
  });

  it('answers a TimeoutError through the onErrors just before the function would time out', async () => {
    const state: State = { trail: [] };
    const h = middlewareChain([recorder('a', { recover: true })], () => new Promise<string>(() => undefined), () => state);
    await expect(h('x', ctx(TIMEOUT_EARLY_MS + 20))).resolves.toBe('recovered by a');
    expect(state.trail).toEqual(['a.before', 'a.onError([AbortError]: The operation was aborted.)']);
  });

  it('gives each call state of its own', async () => {
    const seen: State[] = [];
    const h = middlewareChain<string, string, State>([{ before: (r) => void seen.push(r.internal) }], async () => 'ok', () => ({ trail: [] }));
    await h('a', ctx());
    await h('b', ctx());
    expect(seen[0]).not.toBe(seen[1]);
  });
});
