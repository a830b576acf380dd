import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { cssPath, textOf } from './dom-helpers.js';
import type { Candidate, Link } from './types.js';

/**
 * The page's breadcrumb trail from the document: a `nav`/list marked as breadcrumbs (aria-label,
 * class or id). Each crumb `{ name, url? }`, URLs absolute; the current page's crumb has no link.
 */
export function readBreadcrumbs($: CheerioAPI, pageUrl: string): Candidate<Link[]> | undefined {
  const el = $('[aria-label*="breadcrumb" i], nav[class*="breadcrumb" i], ol[class*="breadcrumb" i], ul[class*="breadcrumb" i], div[class*="breadcrumb" i], [id*="breadcrumb" i]').first()[0] as Element | undefined;
  if (!el) return undefined;
  const items = $(el).find('li').toArray() as Element[];
  const crumbs: Link[] = [];
  const nodes: Element[] = items.length ? items : ($(el).find('a').toArray() as Element[]);
  for (const n of nodes) {
    const name = textOf(n, 200).replace(/^[›>»/|]\s*|\s*[›>»/|]$/g, '').trim();
    if (!name || name.length > 120) continue;
    const a = n.name === 'a' ? n : ($(n).find('a[href]').first()[0] as Element | undefined);
    let url: string | undefined;
    if (a?.attribs.href) {
      try {
        url = new URL(a.attribs.href, pageUrl).href;
      } catch {
        url = undefined;
      }
    }
    crumbs.push(url ? { name, url } : { name });
  }
  if (!crumbs.length || crumbs.length > 15) return undefined;
  return { value: crumbs, source: 'document', path: cssPath($, el), confidence: 0.8 };
}
