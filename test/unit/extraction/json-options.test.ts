import { describe, expect, it } from 'vitest';
import { schemaDepth, schemaShapeError, jsonOptionsSchema, SCHEMA_LIMITS } from '../../../functions/core/extraction/json-options.js';
import { scrapeRequestSchema } from '../../../functions/core/runs/run-task.js';
import { compileSchema } from '../../../functions/core/extraction/schema-compile.js';

const nested = (levels: number) => {
  let s: Record<string, unknown> = { type: 'string' };
  for (let i = 1; i < levels; i++) s = { type: 'object', properties: { x: s } };
  return s;
};

describe('schema limits', () => {
  it('counts depth in subschemas: keyword maps and arrays are not levels', () => {
    expect(schemaDepth({ type: 'string' })).toBe(1);
    expect(schemaDepth({ type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } })).toBe(2);
    expect(schemaDepth({ type: 'object', properties: { list: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } } } })).toBe(4);
    expect(schemaDepth({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe(2);
    expect(schemaDepth(nested(10))).toBe(10);
  });

  it('accepts 10 levels, refuses 11, and stops walking a hostile nesting early', () => {
    expect(schemaShapeError(nested(SCHEMA_LIMITS.maxDepth))).toBeNull();
    expect(schemaShapeError(nested(SCHEMA_LIMITS.maxDepth + 1))).toMatch(/more than 10 levels/);
    expect(schemaShapeError(nested(100_000))).toMatch(/more than 10 levels/);
    let deepEnum: unknown = 'x';
    for (let i = 0; i < 100_000; i++) deepEnum = [deepEnum];
    expect(schemaShapeError({ type: 'object', default: deepEnum })).toMatch(/more than 10 levels/);
  });

  it('needs "type": "object" at the top and at most 32 KB', () => {
    expect(schemaShapeError({ type: 'array', items: {} })).toMatch(/"type": "object"/);
    expect(schemaShapeError({ properties: {} })).toMatch(/"type": "object"/);
    expect(schemaShapeError({ type: 'object', description: 'd'.repeat(32 * 1024) })).toMatch(/bytes; the limit is 32768/);
  });

  it('limits the prompt to 4000 characters', () => {
    const schema = { type: 'object' };
    expect(jsonOptionsSchema.safeParse({ schema, prompt: 'p'.repeat(4000) }).success).toBe(true);
    expect(jsonOptionsSchema.safeParse({ schema, prompt: 'p'.repeat(4001) }).success).toBe(false);
    expect(jsonOptionsSchema.safeParse({ schema, extra: 1 }).success).toBe(false);
  });
});

describe('json in POST /v1/scrape', () => {
  const url = 'https://example.com/';
  const schema = { type: 'object', properties: { a: { type: 'string' } } };

  it('takes json with json_options, and each only with the other', () => {
    expect(scrapeRequestSchema.safeParse({ url, formats: ['json', 'markdown'], json_options: { schema } }).success).toBe(true);
    const missing = scrapeRequestSchema.safeParse({ url, formats: ['json'] });
    expect(missing.success).toBe(false);
    expect(missing.error!.issues[0]).toMatchObject({ path: ['json_options'], message: expect.stringContaining('json_options') });
    const unused = scrapeRequestSchema.safeParse({ url, formats: ['markdown'], json_options: { schema } });
    expect(unused.error!.issues[0]).toMatchObject({ path: ['formats'] });
    expect(scrapeRequestSchema.safeParse({ url, json_options: { schema } }).success).toBe(false);
  });
});

describe('compiling callers\' schemas', () => {
  it('keeps schemas apart: the same $id in two schemas does not clash or leak between them', () => {
    const a = compileSchema({ $id: 'https://example.com/item', type: 'object', properties: { n: { type: 'string' } }, required: ['n'] });
    const b = compileSchema({ $id: 'https://example.com/item', type: 'object', properties: { n: { type: 'number' } }, required: ['n'] });
    expect(a({ n: 'x' })).toBe(true);
    expect(b({ n: 'x' })).toBe(false);
    expect(b({ n: 1 })).toBe(true);
  });

  it('refuses what is not a valid JSON Schema, unresolvable refs and patterns RE2 cannot run, with 400', () => {
    for (const bad of [
      { type: 'object', properties: { a: { type: 'strnig' } } },
      { type: 'object', properties: { a: { $ref: 'https://elsewhere.example/s.json' } } },
      { type: 'object', properties: { a: { type: 'string', pattern: '(a)\\1' } } },
      { type: 'object', required: 'a' },
    ]) {
      expect(() => compileSchema(bad)).toThrow(expect.objectContaining({ status: 400, code: 'invalid_request' }));
    }
  });

  it('runs patterns in linear time (RE2): a catastrophic pattern on a long string returns at once', () => {
    const v = compileSchema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } } });
    expect(v({ s: `${'a'.repeat(50_000)}!` })).toBe(false);
    expect(v({ s: 'aaaa' })).toBe(true);
  });
});
