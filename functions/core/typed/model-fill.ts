import type { JsonExtractor } from '../extraction/types.js';
import { structuredAvailability } from './availability.js';
import { ISO_CODES } from './currency.js';
import { isEmpty } from './merge.js';
import { isoDate } from './meta.js';
import { structuredAmount } from './price.js';
import { AVAILABILITIES, type TypedData } from './types.js';

/** Model-fillable fields per item type: how each is asked for, and how an answer is checked. */
type Check = (v: unknown) => unknown;
const str = (max: number): Check => (v) => (typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : undefined);
const named: Check = (v) => {
  const s = str(200)(v);
  return s ? { name: s } : undefined;
};
const FIELDS: Record<'product' | 'article' | 'job_posting', Record<string, { schema: Record<string, unknown>; check: Check }>> = {
  product: {
    name: { schema: { type: 'string' }, check: str(500) },
    price: { schema: { type: 'string', description: 'current price as a decimal number with a dot, e.g. "1299.00"' }, check: (v) => (typeof v === 'string' || typeof v === 'number' ? structuredAmount(v) : undefined) },
    currency: { schema: { type: 'string', description: 'ISO 4217 code' }, check: (v) => (typeof v === 'string' && ISO_CODES.has(v.trim().toUpperCase()) ? v.trim().toUpperCase() : undefined) },
    availability: { schema: { type: 'string', enum: [...AVAILABILITIES] }, check: (v) => structuredAvailability(v) },
    sku: { schema: { type: 'string' }, check: str(80) },
    mpn: { schema: { type: 'string' }, check: str(80) },
    brand: { schema: { type: 'string' }, check: named },
    description: { schema: { type: 'string' }, check: str(5_000) },
  },
  article: {
    headline: { schema: { type: 'string' }, check: str(500) },
    date_published: { schema: { type: 'string', description: 'ISO 8601' }, check: (v) => (typeof v === 'string' ? isoDate(v) : undefined) },
    date_modified: { schema: { type: 'string', description: 'ISO 8601' }, check: (v) => (typeof v === 'string' ? isoDate(v) : undefined) },
    description: { schema: { type: 'string' }, check: str(5_000) },
  },
  job_posting: {
    job_title: { schema: { type: 'string' }, check: str(300) },
    date_published: { schema: { type: 'string', description: 'ISO 8601' }, check: (v) => (typeof v === 'string' ? isoDate(v) : undefined) },
    valid_through: { schema: { type: 'string', description: 'ISO 8601' }, check: (v) => (typeof v === 'string' ? isoDate(v) : undefined) },
    hiring_organization: { schema: { type: 'string' }, check: named },
    job_location: { schema: { type: 'string' }, check: (v) => (str(300)(v) ? { raw: str(300)(v) } : undefined) },
    employment_type: { schema: { type: 'string' }, check: str(100) },
    description: { schema: { type: 'string' }, check: str(10_000) },
  },
};

const PROMPT =
  'Read the page and give only values the page itself states for its own item (not related items, not the cart, not ads). ' +
  'Leave a field out when the page does not state it clearly. Never guess.';

/**
 * `typed_options.model`: ask the model (through the governed extractor: quota-checked, metered,
 * audited, the page fenced as data) for the fields the deterministic pass left empty, in one
 * call for the page. Each answer is checked like a value read from the page (a price must be one
 * decimal price, a currency an ISO code…); what passes fills an empty field only, with provenance
 * `model`. A typed object that is null stays null: the model does not decide what kind a page is.
 */
export async function fillTypedWithModel(page: TypedData, input: { url: string; markdown: string }, extract: JsonExtractor): Promise<TypedData> {
  const properties: Record<string, unknown> = {};
  const missing: Record<string, string[]> = {};
  for (const kind of Object.keys(FIELDS) as (keyof typeof FIELDS)[]) {
    const obj = page[kind] as Record<string, unknown> | null | undefined;
    if (!obj) continue;
    const empty = Object.keys(FIELDS[kind]).filter((f) => isEmpty(obj[f]));
    if (!empty.length) continue;
    missing[kind] = empty;
    properties[kind] = { type: 'object', properties: Object.fromEntries(empty.map((f) => [f, FIELDS[kind][f].schema])) };
  }
  if (!Object.keys(properties).length) return {};
  // Extra keys in an answer are ignored (never applied), so the schema does not refuse them.
  const schema = { type: 'object', properties };
  const out = await extract({ url: input.url, markdown: input.markdown, schema, prompt: PROMPT });
  const answer = (out.json && typeof out.json === 'object' ? out.json : {}) as Record<string, Record<string, unknown> | undefined>;
  const filled: TypedData = {};
  for (const [kind, fields] of Object.entries(missing) as [keyof typeof FIELDS, string[]][]) {
    const obj = { ...(page[kind] as unknown as Record<string, unknown>) } as Record<string, unknown> & { provenance: Record<string, unknown>; warnings: string[] };
    obj.provenance = { ...obj.provenance };
    obj.warnings = [...obj.warnings];
    if (out.json_error) obj.warnings.push(`model fill: ${out.json_error.code}: ${out.json_error.message}`);
    const got = answer[kind] ?? {};
    for (const f of fields) {
      if (got[f] === undefined || got[f] === null) continue;
      const v = FIELDS[kind][f].check(got[f]);
      if (v === undefined) {
        obj.warnings.push(`model fill: ${f} left out: the model's value ${JSON.stringify(got[f]).slice(0, 60)} is not a valid ${f}`);
        continue;
      }
      obj[f] = v;
      obj.provenance[f] = { source: 'model', path: `/${kind}/${f}`, confidence: 0.5 };
    }
    (filled as Record<string, unknown>)[kind] = obj;
  }
  return filled;
}
