import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeRunbook, runbookStepsSchema } from '../../../functions/core/scrapers/runbook.js';
import { startFixtureSite, type FixtureSite } from '../../fixtures/site/server.js';
import { makeHarness, type Harness } from './harness.js';

let site: FixtureSite;
let h: Harness;

beforeAll(async () => {
  site = await startFixtureSite();
  h = makeHarness({ fixturePort: site.port });
});

afterAll(async () => {
  await h?.close();
  await site?.close();
});

const url = (p: string) => `${site.baseUrl}${p}`;
const resolveSecret = async () => {
  throw new Error('no secrets here');
};

// The runbook step that returns markdown: `content`, with the content options of page-content.
describe('runbook content step', () => {
  it('emits the current page as one item: markdown, metadata, content_type', async () => {
    const steps = runbookStepsSchema.parse([{ action: 'goto', url: url('/article') }, { action: 'content', formats: ['markdown', 'metadata', 'links'], exclude_tags: ['.sidebar'] }]);
    const res = await executeRunbook(steps, { engine: h.engine, policy: { mode: 'open', domains: [] }, input: {}, resolveSecret });
    expect(res.error).toBeNull();
    expect(res.items).toHaveLength(1);
    const data = res.items[0]!.data;
    expect(data).toMatchObject({ title: 'A Long Article', content_type: 'text/html', metadata: { lang: 'en-GB', language: 'en-GB', type: 'article' } });
    expect(data.markdown).toMatch(/^# The article headline/);
    expect(data.links).toContain(url('/about'));
    expect(data).not.toHaveProperty('text');
    expect(res.log.at(-1)).toMatchObject({ action: 'content', ok: true, detail: '1 item' });
  });

  it('validates the step: formats and selectors', () => {
    expect(runbookStepsSchema.safeParse([{ action: 'goto', url: url('/') }, { action: 'content' }]).data?.[1]).toEqual({ action: 'content', formats: ['markdown', 'metadata'] });
    const bad = runbookStepsSchema.safeParse([{ action: 'goto', url: url('/') }, { action: 'content', include_tags: ['div[['] }]);
    expect(bad.success).toBe(false);
    expect(bad.error!.issues[0]!.message).toBe('"div[[" is not a valid CSS selector');
    expect(runbookStepsSchema.safeParse([{ action: 'goto', url: url('/') }, { action: 'content', formats: ['screenshot'] }]).success).toBe(false);
  });
});
