import fc from 'fast-check';

/** The subset of JSON Schema that zod's toJSONSchema emits for the request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

/**
 * Values an attacker would try where a well-formed one is expected: wrong types, empty and huge
 * strings, control characters, path traversal, markup, prototype keys, numbers at the edges.
 * Never a public address: the suite must not make the service reach for the internet.
 */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null, '', ' ', '\u0000', '\uFFFF\uD800', '../../../etc/passwd', '..%2f..%2f', '%00', '<script>alert(1)</script>',
    '${7*7}{{7*7}}', "' OR 1=1 --", '__proto__', 'constructor', 'x'.repeat(20_000), -1, 0, -0, 1e308, -1e308,
    2 ** 53 + 1, 0.5, true, false, [], {}, JSON.parse('{"__proto__":{"polluted":1}}'), { constructor: { prototype: { polluted: 1 } } },
    'http://169.254.169.254/latest/meta-data/', 'http://127.0.0.1:1/', 'file:///etc/passwd', 'javascript:alert(1)',
    'https://[::1]/', 'https://0x7f.1/', '/regex(a+)+$/', '*', '\n\r\t', '😀'.repeat(100),
  ),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

const withHostile = <T>(arb: fc.Arbitrary<T>, hostileWeight: number): fc.Arbitrary<unknown> =>
  hostileWeight > 0 ? fc.oneof({ arbitrary: arb, weight: 6 }, { arbitrary: hostileValue, weight: hostileWeight }) : arb;

/** Host names that resolve (under the suite's stub resolver) to a private address: refused at submit. */
const hostName = fc.constantFrom('example.com', 'shop.example.org', 'news.example.net', 'xn--bcher-kva.example');

function stringArb(s: JsonSchema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 40, Math.max(min, 40));
  if (s.format === 'uri') return fc.tuple(fc.constantFrom('https://', 'http://'), hostName, fc.webPath()).map(([p, h, path]) => `${p}${h}${path}`);
  if (s.format === 'email') return fc.tuple(fc.stringMatching(/^[a-z]{1,10}$/), hostName).map(([u, h]) => `${u}@${h}`);
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.pattern) {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      /* a pattern fast-check cannot generate from: fall back to plain strings */
    }
  }
  return plainString(min, max);
}

// fast-check builds a table for every fc.string() it makes (to mix its own edge-case strings in):
// about 1.4 s of CPU over the suite's schemas when each string field made its own. One per size.
const plainStrings = new Map<string, fc.Arbitrary<string>>();
function plainString(minLength: number, maxLength: number): fc.Arbitrary<string> {
  const key = `${minLength}:${maxLength}`;
  let arb = plainStrings.get(key);
  if (!arb) plainStrings.set(key, (arb = fc.string({ minLength, maxLength })));
  return arb;
}

function numberArb(s: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-6) : -1e6);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-6) : 1e6);
  if (integer) return fc.integer({ min: Math.ceil(Math.max(lo, -(2 ** 31))), max: Math.floor(Math.min(hi, 2 ** 31)) });
  return fc.double({ min: lo, max: hi, noNaN: true, noDefaultInfinity: true });
}

/**
 * A fast-check arbitrary for values of a JSON Schema: mostly well-formed (so requests get past
 * validation and reach the core), with a hostile value in any position now and then, and
 * occasionally an unknown or prototype-polluting key.
 */
export function arbitraryFor(s: JsonSchema | undefined, hostileWeight = 1, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 5) return hostileValue;
  if (s.const !== undefined) return withHostile(fc.constant(s.const), hostileWeight);
  if (s.enum) return withHostile(fc.constantFrom(...s.enum), hostileWeight);
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return fc.oneof(...alts.map((a) => arbitraryFor(a, hostileWeight, depth + 1)));
  if (s.allOf?.length) return arbitraryFor(s.allOf[0], hostileWeight, depth + 1);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      return withHostile(stringArb(s), hostileWeight);
    case 'integer':
      return withHostile(numberArb(s, true), hostileWeight);
    case 'number':
      return withHostile(numberArb(s, false), hostileWeight);
    case 'boolean':
      return withHostile(fc.boolean(), hostileWeight);
    case 'null':
      return withHostile(fc.constant(null), hostileWeight);
    case 'array': {
      const item = s.prefixItems ? fc.oneof(...s.prefixItems.map((p) => arbitraryFor(p, hostileWeight, depth + 1))) : arbitraryFor(s.items, hostileWeight, depth + 1);
      const minLength = s.minItems ?? 0;
      return withHostile(fc.array(item, { minLength, maxLength: Math.max(minLength, Math.min(s.maxItems ?? 4, 4)) }), hostileWeight);
    }
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, p] of Object.entries(props)) record[k] = arbitraryFor(p, hostileWeight, depth + 1);
      const requiredKeys = Object.keys(props).filter((k) => required.has(k));
      const base = fc.record(record, { requiredKeys });
      const extra = fc.dictionary(fc.constantFrom('__proto__', 'constructor', 'prototype', 'unknown_field', 'tenant_id', 'pk'), hostileValue, { maxKeys: 2 });
      const obj = hostileWeight > 0
        ? fc.tuple(base, fc.option(extra, { freq: 8 })).map(([b, e]) => (e && typeof b === 'object' && b ? { ...b, ...e } : b))
        : base;
      return withHostile(obj, hostileWeight);
    }
    default:
      return hostileValue;
  }
}
