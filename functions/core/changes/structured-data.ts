/** The structured data of a page result that change tracking compares by JSON pointer: `json` and `extracted`, when present. */
export function structuredOf(page: { json?: unknown; extracted?: unknown }): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  if (page.json !== undefined) out.json = page.json;
  if (page.extracted !== undefined) out.extracted = page.extracted;
  return Object.keys(out).length ? out : null;
}
