import { describe, expect, it } from 'vitest';
import { scrapeRequestSchema } from '../../../functions/core/runs/run-task.js';
import { builtinScraper } from '../../../functions/core/scrapers/registry.js';
import { contentOptionsOf } from '../../../functions/core/content/content-options.js';
import { crawlPageOptions } from '../../../functions/core/scrapers/site-crawl.js';

const url = 'https://example.com/';

// API.md "Content options": the same three inputs on POST /v1/scrape, page-content and site-crawl.
describe('content options at the API edge', () => {
  const inputs: [string, (extra: Record<string, unknown>) => { success: boolean; data?: unknown; error?: { issues: { path: PropertyKey[]; message: string }[] } }][] = [
    ['POST /v1/scrape', (x) => scrapeRequestSchema.safeParse({ url, ...x })],
    ['page-content', (x) => builtinScraper('page-content')!.inputSchema.safeParse({ url, ...x })],
    ['site-crawl', (x) => builtinScraper('site-crawl')!.inputSchema.safeParse({ start_url: url, ...x })],
  ];

  for (const [name, parse] of inputs) {
    it(`${name} accepts only_main_content, include_tags and exclude_tags`, () => {
      const r = parse({ only_main_content: false, include_tags: ['article', '.post > p'], exclude_tags: ['nav', '[data-ad]', 'div:not(.keep)'] });
      expect(r.success).toBe(true);
      expect(r.data).toMatchObject({ only_main_content: false, include_tags: ['article', '.post > p'], exclude_tags: ['nav', '[data-ad]', 'div:not(.keep)'] });
    });

    it(`${name} rejects a bad selector, naming it`, () => {
      const r = parse({ exclude_tags: ['nav', 'div[['] });
      expect(r.success).toBe(false);
      const issue = r.error!.issues[0]!;
      expect(issue.path).toEqual(['exclude_tags', 1]);
      expect(issue.message).toBe('"div[[" is not a valid CSS selector');
    });

    it(`${name} bounds counts, lengths and types`, () => {
      expect(parse({ include_tags: Array.from({ length: 51 }, () => 'p') }).success).toBe(false);
      expect(parse({ include_tags: ['p'.repeat(501)] }).success).toBe(false);
      expect(parse({ include_tags: [''] }).success).toBe(false);
      expect(parse({ include_tags: 'article' }).success).toBe(false);
      expect(parse({ only_main_content: 'yes' }).success).toBe(false);
    });
  }

  it('lists the options with descriptions in the page-content JSON Schema', () => {
    const props = builtinScraper('page-content')!.input_schema.properties as Record<string, { description?: string; type?: string }>;
    expect(props.only_main_content).toMatchObject({ type: 'boolean' });
    expect(props.only_main_content!.description).toMatch(/main content only/);
    expect(props.include_tags).toMatchObject({ type: 'array' });
    expect(props.exclude_tags!.description).toMatch(/removed before markdown/);
  });
});

describe('content options to the engine', () => {
  it('carries only the options given', () => {
    expect(contentOptionsOf({})).toEqual({});
    expect(contentOptionsOf({ only_main_content: false, include_tags: [], exclude_tags: ['nav'] })).toEqual({ only_main_content: false, exclude_tags: ['nav'] });
  });

  it('a crawl scrapes every page with its content options', () => {
    const input = builtinScraper('site-crawl')!.inputSchema.parse({ start_url: url, only_main_content: false, exclude_tags: ['.ad'] });
    expect(crawlPageOptions(input as never)).toEqual({ engine: 'auto', formats: ['markdown', 'text', 'links', 'metadata'], timeout_ms: undefined, only_main_content: false, exclude_tags: ['.ad'] });
  });
});
