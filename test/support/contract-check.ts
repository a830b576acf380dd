import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';

/**
 * Checks a response against the served OpenAPI document (JSON Schema 2020-12 with ajv): the
 * operation must document the status, the media type and every required header, and the JSON
 * body must match the schema. A path no operation serves must be the catch-all's 404, and a
 * known path with another method its 405 with `Allow`. Returns what is wrong, or undefined.
 */
export interface ContractChecker {
  check(method: string, path: string, status: number, headers: Headers, body: string): string | undefined;
}

interface Media { schema?: unknown }
interface Resp { content?: Record<string, Media>; headers?: Record<string, { $ref?: string; required?: boolean }> }
interface Op { responses: Record<string, Resp | { $ref: string }> }
interface Doc { paths: Record<string, Record<string, Op>>; 'x-unmatched-responses': Record<string, Resp> }

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export function contractChecker(doc: unknown): ContractChecker {
  const d = doc as Doc;
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  (addFormats as unknown as (a: Ajv2020) => void)(ajv);
  ajv.addSchema(doc as object, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validator = (pointer: string) => {
    let v = compiled.get(pointer);
    if (!v) compiled.set(pointer, (v = ajv.compile({ $ref: `openapi#${pointer}` })));
    return v;
  };
  // Greedy `{proxy}` tails (console files) may contain '/'; other parameters are one segment.
  const templates = Object.keys(d.paths).map((p) => ({
    p,
    re: new RegExp(`^${p.replace(/[.*?^$()|[\]\\]/g, '\\$&').replace(/\{proxy\}/g, '.+').replace(/\{\w+\}/g, '[^/]+')}$`),
  }));

  const checkResponse = (where: string, pointer: string, r: Resp, status: number, headers: Headers, body: string): string | undefined => {
    for (const [name, h] of Object.entries(r.headers ?? {}))
      if (h.required && !headers.has(name)) return `${where}: header ${name} is documented as required but missing`;
    const type = (headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!body) return undefined;
    if (!r.content) return `${where}: a body (${type || 'no content-type'}) where the document declares none`;
    const media = r.content[type];
    if (!media) return `${where}: media type ${type} is not documented (documented: ${Object.keys(r.content).join(', ')})`;
    if (type !== 'application/json' && !type.endsWith('+json')) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `${where}: ${type} body is not JSON`;
    }
    const v = validator(`${pointer}/content/${esc(type)}/schema`);
    if (!v(parsed)) return `${where}: body does not match the schema: ${ajv.errorsText(v.errors, { separator: '; ' })}\n${body.slice(0, 600)}`;
    return undefined;
  };

  return {
    check(method, rawPath, status, headers, body) {
      const path = rawPath.split('?')[0]!;
      const m = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
      const where = `${method} ${path} → ${status}`;
      const hit = templates.find((t) => t.re.test(path));
      if (!hit) {
        if (status !== 404) return `${where}: no documented path matches, so only the catch-all's 404 may answer`;
        return checkResponse(where, '/x-unmatched-responses/NotFound', d['x-unmatched-responses'].NotFound!, status, headers, body);
      }
      const op = d.paths[hit.p]![m];
      if (!op) {
        if (method.toUpperCase() === 'OPTIONS') return undefined;
        if (status !== 405) return `${where}: ${method} is not documented on ${hit.p}, so only a 405 may answer`;
        return checkResponse(where, '/x-unmatched-responses/MethodNotAllowed', d['x-unmatched-responses'].MethodNotAllowed!, status, headers, body);
      }
      const r = op.responses[String(status)] as Resp | undefined;
      if (!r) return `${where}: status ${status} is not documented for ${m.toUpperCase()} ${hit.p} (documented: ${Object.keys(op.responses).join(', ')})`;
      return checkResponse(where, `/paths/${esc(hit.p)}/${m}/responses/${status}`, r, status, headers, method.toUpperCase() === 'HEAD' ? '' : body);
    },
  };
}
