/**
 * A static estimate of what a caller's JSON Schema costs before ajv sees it (issue 27). The
 * schema is compiled without inlining `$ref`s (schema-compile.ts), so compiling is linear in its
 * size; what is left is the cost of *applying* it: `allOf: [{$ref: b}, {$ref: b}]` chained 30 deep
 * is a 7 KB schema that checks each value 2^30 times. The estimate walks the schema graph once,
 * memoised per subschema: the expanded cost of a subschema is 1 + the costs of its subschemas,
 * a `$ref` costs what its target costs, and a reference back to a subschema still being walked (a
 * recursive schema) costs 1, since recursion is bounded by the data, not the schema.
 */

/** The limits, well above any hand-written extraction schema (tens of fields, a few `$defs`). */
export const SCHEMA_COMPLEXITY_LIMITS = {
  /** `$ref`s in the whole schema. */
  maxRefs: 100,
  /** Subschemas (objects in schema positions) in the whole schema. */
  maxNodes: 2_000,
  /** Checks one value may go through (the expanded cost). */
  maxExpanded: 10_000,
} as const;

type Node = Record<string, unknown>;

/** Keywords whose value is a map of names to subschemas. */
const MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);
/** Keywords whose value is one subschema or an array of them. */
const SUBS = new Set(['items', 'prefixItems', 'additionalItems', 'additionalProperties', 'unevaluatedItems', 'unevaluatedProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'allOf', 'anyOf', 'oneOf']);

/** Keywords that apply their subschemas to the same value (no step into the data). */
const IN_PLACE = ['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Subschemas directly under `n` (not following `$ref`). */
function children(n: Node): Node[] {
  const out: Node[] = [];
  for (const [k, v] of Object.entries(n)) {
    if (MAPS.has(k) && isNode(v)) for (const s of Object.values(v)) if (isNode(s)) out.push(s);
    if (SUBS.has(k)) {
      if (isNode(v)) out.push(v);
      else if (Array.isArray(v)) for (const s of v) if (isNode(s)) out.push(s);
    }
  }
  return out;
}

/** The target of a local `$ref` (`#`, `#/$defs/a`, with `~0`/`~1`/percent escapes), else undefined. */
function resolveLocal(root: Node, ref: string): Node | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let cur: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let key: string;
    try {
      key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (!isNode(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return isNode(cur) ? cur : undefined;
}

/**
 * What is too much about `schema`, or null. Linear in the schema's size (each subschema's cost is
 * computed once); the depth is already bounded by the request validation (json-options.ts).
 */
export function schemaComplexityProblem(schema: Record<string, unknown>): string | null {
  const L = SCHEMA_COMPLEXITY_LIMITS;
  // Count subschemas and $refs first (iterative).
  let nodes = 0;
  let refs = 0;
  const seen = new Set<Node>();
  const stack: Node[] = [schema];
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n)) continue;
    seen.add(n);
    nodes++;
    if (typeof n.$ref === 'string') refs++;
    if (nodes > L.maxNodes) return `it has more than ${L.maxNodes} subschemas (limit ${L.maxNodes})`;
    if (refs > L.maxRefs) return `it has more than ${L.maxRefs} $ref (limit ${L.maxRefs})`;
    stack.push(...children(n));
  }
  // A cycle of $ref and in-place applicators (allOf, anyOf, not...) never reaches data: applying
  // it never ends. Found by a depth-first walk over those edges only.
  const state = new Map<Node, 1 | 2>();
  const inPlace = (n: Node): Node[] => {
    const out: Node[] = [];
    if (typeof n.$ref === 'string') {
      const t = resolveLocal(schema, n.$ref);
      if (t) out.push(t);
    }
    for (const k of IN_PLACE) {
      const v = n[k];
      if (isNode(v)) out.push(v);
      else if (Array.isArray(v)) for (const s of v) if (isNode(s)) out.push(s);
    }
    return out;
  };
  for (const start of seen) {
    if (state.has(start)) continue;
    const path: Array<[Node, Node[]]> = [[start, inPlace(start)]];
    state.set(start, 1);
    while (path.length) {
      const top = path[path.length - 1]!;
      const next = top[1].pop();
      if (!next) {
        state.set(top[0], 2);
        path.pop();
        continue;
      }
      const st = state.get(next);
      if (st === 1) return 'its $ref form a cycle that never reaches data (applying it would never end)';
      if (st === undefined) {
        state.set(next, 1);
        path.push([next, inPlace(next)]);
      }
    }
  }
  // Then the expanded cost, memoised; the recursion depth is bounded by the node count above.
  const cost = new Map<Node, number>();
  const walking = new Set<Node>();
  const costOf = (n: Node): number => {
    const known = cost.get(n);
    if (known !== undefined) return known;
    if (walking.has(n)) return 1;
    walking.add(n);
    let c = 1;
    if (typeof n.$ref === 'string') {
      const target = resolveLocal(schema, n.$ref);
      if (target) c += costOf(target);
    }
    for (const child of children(n)) {
      c += costOf(child);
      if (c > L.maxExpanded) break;
    }
    walking.delete(n);
    cost.set(n, c);
    return c;
  };
  const total = costOf(schema);
  if (total > L.maxExpanded) return `one value would go through more than ${L.maxExpanded} checks (its $ref and allOf/anyOf/oneOf expand too far)`;
  return null;
}
