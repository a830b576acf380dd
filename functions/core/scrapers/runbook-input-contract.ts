import type { RunbookStep } from './runbook-schema.js';

// A runbook's input contract (issue 29): what `POST /v1/runs { scraper_id: "rbk_…" }` takes is
// derived from the steps' `{input: name}` references, and described by the author in the
// runbook's own `input_schema` (API.md "Runbooks": a JSON Schema; its `properties.<name>` may give
// `description`, `examples`, `type`, `enum`, `format`). The stored `input_schema` is never
// rewritten: the derived contract is computed whenever it is shown or checked, so a runbook saved
// before this existed gets one too, and an edit of the steps changes it at once.

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** Where each input a step list reads is used: goto URLs and fill values. */
export function runbookInputUses(steps: RunbookStep[]): Map<string, { url: boolean; path: boolean; fills: string[] }> {
  const uses = new Map<string, { url: boolean; path: boolean; fills: string[] }>();
  const use = (name: string) => {
    let u = uses.get(name);
    if (!u) uses.set(name, (u = { url: false, path: false, fills: [] }));
    return u;
  };
  steps.forEach((s, i) => {
    // The first goto needs an absolute URL; a later one may take a path (resolved on the page).
    if (s.action === 'goto' && typeof s.url === 'object') {
      const u = use(s.url.input);
      if (i === 0) u.url = true;
      else u.path = true;
    }
    if (s.action === 'fill' && typeof s.value === 'object' && 'input' in s.value) use(s.value.input).fills.push(s.selector);
  });
  return uses;
}

/**
 * The JSON Schema a published runbook's input must satisfy: one property per referenced input
 * (required; a string, an absolute http(s) URL for a goto's), merged with what the author wrote
 * in `authored` (their description, examples, type, enum win over the derived defaults), plus
 * any other property the author declared. Extra inputs stay allowed unless the author set
 * `additionalProperties: false` (runbooks saved before kept working with any input).
 */
export function runbookInputSchema(steps: RunbookStep[], authored: Json = {}): Json {
  const props: Record<string, Json> = {};
  const authoredProps = isObj(authored.properties) ? authored.properties : {};
  const required = new Set<string>();
  for (const [name, use] of runbookInputUses(steps)) {
    const derived: Json = use.url
      ? { type: 'string', format: 'uri', description: 'The URL the runbook opens (absolute http or https)' }
      : use.path
        ? { type: 'string', description: 'A URL or path the runbook opens' }
        : { type: 'string', description: `Typed into ${use.fills.join(', ')}` };
    const mine = isObj(authoredProps[name]) ? authoredProps[name] : {};
    props[name] = { ...derived, ...mine };
    // A goto reads it as a URL whatever the author wrote: keep the format that check relies on.
    if (use.url) Object.assign(props[name], { type: 'string', format: 'uri' });
    required.add(name);
  }
  for (const [name, p] of Object.entries(authoredProps)) if (!(name in props) && isObj(p)) props[name] = p;
  if (Array.isArray(authored.required)) for (const r of authored.required) if (typeof r === 'string' && r in props) required.add(r);
  return {
    type: 'object',
    ...(typeof authored.title === 'string' ? { title: authored.title } : {}),
    ...(typeof authored.description === 'string' ? { description: authored.description } : {}),
    properties: props,
    required: [...required],
    additionalProperties: authored.additionalProperties === false ? false : true,
  };
}

/** One problem with a run's input: the input's name and what is wrong with it. */
export interface InputProblem {
  name: string;
  message: string;
}

const typeOf = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v);

/**
 * Check a runbook run's input (scalars by then) against {@link runbookInputSchema}: required
 * inputs present and non-empty, declared types and enums respected, URL inputs absolute http(s),
 * no undeclared input when the author closed the schema.
 */
export function checkRunbookInput(schema: Json, input: Record<string, unknown>): InputProblem[] {
  const problems: InputProblem[] = [];
  const props = (isObj(schema.properties) ? schema.properties : {}) as Record<string, Json>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  for (const name of required) {
    const v = input[name];
    if (v === undefined || v === '') {
      const what = typeof props[name]?.description === 'string' ? ` (${String(props[name].description)})` : '';
      problems.push({ name, message: `input ${name} is required by this runbook${what}` });
    }
  }
  for (const [name, v] of Object.entries(input)) {
    const p = props[name];
    if (!p) {
      if (schema.additionalProperties === false) problems.push({ name, message: `this runbook takes no input named ${name}` });
      continue;
    }
    if (v === '' && required.includes(name)) continue; // reported above
    const types = (Array.isArray(p.type) ? p.type : p.type ? [p.type] : []) as string[];
    const t = typeOf(v);
    if (types.length && !types.includes(t) && !(t === 'integer' && types.includes('number'))) {
      problems.push({ name, message: `input ${name} must be ${types.join(' or ')} (got ${t})` });
      continue;
    }
    if (Array.isArray(p.enum) && !p.enum.includes(v)) problems.push({ name, message: `input ${name} must be one of ${p.enum.map((e) => JSON.stringify(e)).join(', ')}` });
    if (p.format === 'uri' && typeof v === 'string' && !isHttpUrl(v)) problems.push({ name, message: `input ${name} must be an absolute http(s) URL` });
  }
  return problems;
}

function isHttpUrl(v: string): boolean {
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}

/** The values of a run's inputs that the contract says are URLs (checked against the target policy up front). */
export function urlInputs(schema: Json, input: Record<string, unknown>): string[] {
  const props = (isObj(schema.properties) ? schema.properties : {}) as Record<string, Json>;
  return Object.entries(input)
    .filter(([k, v]) => typeof v === 'string' && props[k]?.format === 'uri')
    .map(([, v]) => v as string);
}
