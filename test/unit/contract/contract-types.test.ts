import { describe, expect, it } from 'vitest';
import { api, lazyContract } from '../../../functions/http/pipeline/api.js';
import { contracts } from '../../../functions/http/contracts/runs.js';
import { contracts as jobs } from '../../../functions/http/contracts/jobs.js';
import type { Contract } from '../../../functions/http/contracts/contract.js';

/** Compile-time checks (tsc --noEmit): a handler's inputs are typed from its contract, not `any`. */
describe('contract typing', () => {
  it('types params, query and body from the contract', () => {
    const h = api(contracts['runs.get'], async (req) => {
      const id: string = req.params.id;
      const wait: number | undefined = req.query.wait;
      // @ts-expect-error: runs.get has no such path parameter
      void req.params.job_id;
      return { body: { id, wait } };
    });
    const c = api(jobs['jobs.create'], async (req) => {
      const label: string = req.body.label;
      // @ts-expect-error: the body has no such field
      void req.body.nope;
      return { body: { label } };
    });
    expect(h.contractId).toBe('runs.get');
    expect(c.contractId).toBe('jobs.create');
  });

  it('types a lazy contract the same way, from its loader, and checks its id', () => {
    const h = api(lazyContract('runs.get', () => import('../../../functions/http/contracts/runs.js').then((m) => m.contracts['runs.get'])), async (req) => {
      const id: string = req.params.id;
      const wait: number | undefined = req.query.wait;
      // @ts-expect-error: runs.get has no such path parameter
      void req.params.job_id;
      return { body: { id, wait } };
    });
    // @ts-expect-error: the id must be the loaded contract's own
    void lazyContract('runs.list', () => import('../../../functions/http/contracts/runs.js').then((m) => m.contracts['runs.get']));
    expect(h.contractId).toBe('runs.get');
  });

  it('refuses a lazy contract that loads another route\'s contract, and loads a contract once', async () => {
    let loads = 0;
    const wrong = lazyContract<Contract>('runs.list', async () => {
      loads++;
      return contracts['runs.get'];
    });
    await expect(wrong.load()).rejects.toThrow('contract runs.list loaded as runs.get');
    const right = lazyContract('runs.get', async () => {
      loads++;
      return contracts['runs.get'];
    });
    const [a, b] = await Promise.all([right.load(), right.load()]);
    expect(a).toBe(contracts['runs.get']);
    expect(b).toBe(a);
    expect(loads).toBe(2);
  });
});
