import { dynaliteModule } from './dynalite-patch.js';

interface ParseContext {
  attrNames?: unknown;
  attrVals?: unknown;
  isKeyCondition?: boolean;
}
interface ConditionParser {
  parse(input: string, options: { context: ParseContext }): unknown;
  /** The parser's own parse, which the cached one calls on a miss (read at each call). */
  uncachedParse?: (input: string, options: { context: ParseContext }) => unknown;
  __cached?: true;
}

/** Distinct expressions kept at most; the whole cache is dropped past it. */
const MAX_ENTRIES = 1_000;

/**
 * dynalite parses every condition expression with its PEG parser on every call: for the crawl's
 * URL claims (a conditional put, `attribute_not_exists(pk)`, one per new URL) that was a fifth of
 * the stores process's CPU on the crawl bench, more than the write itself.
 *
 * Keeps the parse of condition expressions that use no expression attribute names or values:
 * their parse depends on the expression's text alone (and on whether it is a key condition), so
 * the same text parses to the same result every time. Each call gets its own copy (the parse is
 * plain JSON data: paths, function names, flags). Expressions with names or values, whose parse
 * embeds them and marks them used, are parsed as before, as are expressions that fail to parse
 * (their error comes from the parser each time). Idempotent.
 */
export function cacheDynaliteConditions(): void {
  const parser = dynaliteModule<ConditionParser>('./db/conditionParser');
  if (parser.__cached) return;
  parser.uncachedParse = parser.parse;
  const parse = (input: string, options: { context: ParseContext }) => parser.uncachedParse!.call(parser, input, options);
  const cache = new Map<string, string>();
  parser.parse = (input: string, options: { context: ParseContext }) => {
    const ctx = options?.context;
    if (typeof input !== 'string' || !ctx || ctx.attrNames != null || ctx.attrVals != null) return parse(input, options);
    const key = `${ctx.isKeyCondition ? 'key' : 'cond'}\n${input}`;
    const hit = cache.get(key);
    if (hit !== undefined) return JSON.parse(hit) as unknown;
    const result = parse(input, options);
    if (result && typeof result === 'object') {
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(key, JSON.stringify(result));
    }
    return result;
  };
  parser.__cached = true;
}
