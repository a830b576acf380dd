/** A readable HTML reference rendered from the OpenAPI document (no external assets). */
export function renderDocsPage(doc: unknown): string {
  const d = doc as { info: { title: string; version: string; description: string }; paths: Record<string, Record<string, Op>> };
  const esc = (s: unknown) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
  const sections: string[] = [];
  for (const [path, ops] of Object.entries(d.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters ?? []).map((p) => `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ', required' : ''})</li>`).join('');
      const body = op.requestBody ? `<details><summary>Request body</summary><pre>${esc(JSON.stringify(op.requestBody.content['application/json'].schema, null, 2))}</pre></details>` : '';
      sections.push(`<section><h3><span class="m ${method}">${method.toUpperCase()}</span> <code>${esc(path)}</code></h3><p>${esc(op.summary)}${op['x-required-scope'] ? ` &middot; scope <code>${esc(op['x-required-scope'])}</code>` : op.security ? ' &middot; any valid key' : ' &middot; no key needed'}</p>${params ? `<ul>${params}</ul>` : ''}${body}</section>`);
    }
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(d.info.title)} reference</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}code,pre{background:#f4f4f4;border-radius:4px;padding:.1rem .3rem}pre{padding:.6rem;overflow:auto}.m{display:inline-block;min-width:4.2rem;font-size:.8rem;color:#fff;border-radius:4px;padding:.1rem .4rem;text-align:center}.get{background:#2b7}.post{background:#27b}.put,.patch{background:#b82}.delete{background:#c33}section{border-bottom:1px solid #eee;padding:.4rem 0}</style></head>
<body><h1>${esc(d.info.title)} <small>${esc(d.info.version)}</small></h1><p>${esc(d.info.description)}</p>
<p>Authenticate with <code>Authorization: Bearer &lt;API key&gt;</code>. Errors are JSON <code>{code, message, request_id}</code>. Lists take <code>?limit=</code> and <code>?cursor=</code>. Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
${sections.join('\n')}</body></html>`;
}
interface Op {
  summary: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  security?: unknown;
  'x-required-scope'?: string;
}
