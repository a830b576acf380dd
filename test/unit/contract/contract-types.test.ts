import { describe, expect, it } from 'vitest';
import { api } from '../../../functions/http/pipeline/api.js';
import { contracts } from '../../../functions/http/contracts/runs.js';
import { contracts as jobs } from '../../../functions/http/contracts/jobs.js';

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
});
