import { describe, expect, it } from 'vitest';
import { runbookReferences, runbookStepSchema, runbookStepsSchema } from '../../../functions/core/scrapers/runbook.js';

const login = [
  { action: 'goto', url: 'https://shop.example/login' },
  { action: 'fill', selector: '#username', value: { input: 'user' } },
  { action: 'fill', selector: '#password', value: { secret: 'shop_password' } },
  { action: 'click', selector: 'button[type=submit]' },
  { action: 'wait_for', selector: '.account', timeout_ms: 5000 },
  { action: 'scroll', times: 2 },
  { action: 'extract', fields: { user: { selector: '.user' } }, item_selector: 'li.order' },
  { action: 'paginate', next: 'a.next', max_pages: 3 },
  { action: 'screenshot', name: 'done' },
];

describe('runbook steps schema', () => {
  it('accepts every step kind and fills defaults', () => {
    const r = runbookStepsSchema.safeParse(login);
    expect(r.success).toBe(true);
    if (r.success) {
      expect(r.data[5]).toEqual({ action: 'scroll', times: 2, delay_ms: 250 });
      expect(r.data[8]).toEqual({ action: 'screenshot', name: 'done', full_page: false });
    }
  });

  it('accepts a goto whose URL comes from an input', () => {
    expect(runbookStepSchema.safeParse({ action: 'goto', url: { input: 'start' } }).success).toBe(true);
  });

  it.each<[unknown, string]>([
    [{ action: 'hover', selector: 'a' }, 'unknown action'],
    [{ action: 'goto', url: 'file:///etc/passwd' }, 'non-http goto'],
    [{ action: 'fill', selector: '#p', value: { secret: 'x', input: 'y' } }, 'ambiguous value'],
    [{ action: 'fill', selector: '#p', value: { env: 'HOME' } }, 'unknown value source'],
    [{ action: 'click', selector: 'a', extra: true }, 'unknown field'],
    [{ action: 'scroll', times: 0 }, 'scroll times < 1'],
    [{ action: 'paginate', next: 'a.next', max_pages: 500 }, 'too many pages'],
    [{ action: 'wait_for', selector: '' }, 'empty selector'],
  ])('rejects %j (%s)', (step, _why) => {
    expect(runbookStepSchema.safeParse(step).success).toBe(false);
  });

  it('requires goto first and an extract before paginate', () => {
    const noGoto = runbookStepsSchema.safeParse([{ action: 'click', selector: 'a' }]);
    expect(noGoto.success).toBe(false);
    const orphan = runbookStepsSchema.safeParse([
      { action: 'goto', url: 'https://shop.example/' },
      { action: 'paginate', next: 'a.next' },
    ]);
    expect(orphan.success).toBe(false);
    if (!orphan.success) expect(orphan.error.issues[0].path).toEqual([1, 'action']);
    expect(runbookStepsSchema.safeParse([]).success).toBe(false);
  });

  it('names the inputs and secrets a runbook uses', () => {
    const steps = runbookStepsSchema.parse(login);
    expect(runbookReferences(steps)).toEqual({ inputs: ['user'], secrets: ['shop_password'] });
  });
});
