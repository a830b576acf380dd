import { firstText, hasType, urlOf, values, type SchemaNode } from './schema-node.js';
import type { Candidate, Link } from './types.js';

/** A BreadcrumbList item (JSON-LD, microdata or RDFa) as `[{ name, url }]`, in position order. */
export function breadcrumbsFromNodes(nodes: SchemaNode[], pageUrl: string): Candidate<Link[]> | undefined {
  const list = nodes.find((n) => hasType(n.value, ['BreadcrumbList']));
  if (!list) return undefined;
  const items = values(list.value, 'itemListElement')
    .map((v) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : undefined))
    .filter((v): v is Record<string, unknown> => Boolean(v))
    .map((li, i) => {
      const item = li.item && typeof li.item === 'object' ? (li.item as Record<string, unknown>) : undefined;
      const name = firstText(li, 'name') ?? (item ? firstText(item, 'name') : undefined);
      const url = urlOf(li.item ?? li.url ?? item?.['@id'], pageUrl);
      return { pos: Number(li.position ?? i + 1), name, url };
    })
    .filter((x) => x.name)
    .sort((a, b) => a.pos - b.pos)
    .map(({ name, url }) => (url ? { name: name!, url } : { name: name! }));
  if (!items.length) return undefined;
  return { value: items, source: list.source, path: list.join(list.path, 'itemListElement'), confidence: 0.9 };
}
