import { describe, expect, it } from 'vitest';
import { compileSchema, schemaCacheSize, SCHEMA_CACHE_SIZE } from '../../../functions/core/extraction/schema-compile.js';
import { schemaComplexityProblem } from '../../../functions/core/extraction/schema-complexity.js';

// The static estimate of a caller's schema (issue 27), before ajv compiles it.

const bomb = (n: number) => {
  const props: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) props[`p${i}`] = { $ref: '#/$defs/a' };
  return { type: 'object', $defs: { a: { type: 'object', properties: props } }, properties: props };
};

describe('schema complexity', () => {
  it('refuses the N=300 $ref bomb (422 schema_too_complex naming the $ref limit) without compiling it', () => {
    expect(() => compileSchema(bomb(300))).toThrow(expect.objectContaining({ status: 422, code: 'schema_too_complex', message: expect.stringContaining('$ref') }));
  });

  it('refuses allOf chains that double per step, and $ref cycles that never reach data', () => {
    const defs: Record<string, unknown> = { d20: { type: 'string' } };
    for (let i = 0; i < 20; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(schemaComplexityProblem({ type: 'object', $defs: defs, properties: { x: { $ref: '#/$defs/d0' } } })).toMatch(/checks/);
    expect(schemaComplexityProblem({ type: 'object', $defs: { x: { anyOf: [{ $ref: '#/$defs/y' }] }, y: { $ref: '#/$defs/x' } }, properties: { a: { $ref: '#/$defs/x' } } })).toMatch(/cycle/);
  });

  it('accepts recursion through data (a tree) and ordinary schemas', () => {
    expect(schemaComplexityProblem({ type: 'object', $defs: { n: { type: 'object', properties: { kids: { type: 'array', items: { $ref: '#/$defs/n' } } } } }, properties: { root: { $ref: '#/$defs/n' } } })).toBeNull();
    expect(schemaComplexityProblem(bomb(40))).toBeNull();
  });

  it('keeps a bounded cache of compiled schemas', () => {
    for (let i = 0; i < SCHEMA_CACHE_SIZE + 20; i++) compileSchema({ type: 'object', properties: { [`f${i}`]: { type: 'string' } } });
    expect(schemaCacheSize()).toBe(SCHEMA_CACHE_SIZE);
  });
});
