import type { CheerioAPI } from 'cheerio';

/** Facts about the page every reader may use: its URL, canonical URL, language, meta tags, h1. */
export interface PageFacts {
  url: string;
  canonical?: string;
  lang?: string;
  /** `<meta property|name|itemprop>` content by lowercased key (first occurrence wins). */
  meta: Map<string, string>;
  /** The page's h1 texts (usually one). */
  h1: string[];
}

export function pageFacts($: CheerioAPI, url: string): PageFacts {
  const meta = new Map<string, string>();
  $('meta').each((_, el) => {
    const a = (el as { attribs: Record<string, string> }).attribs;
    const key = (a.property ?? a.name ?? '').trim().toLowerCase();
    if (key && a.content !== undefined && !meta.has(key)) meta.set(key, a.content.trim());
  });
  let canonical: string | undefined;
  const href = $('link[rel~="canonical" i]').first().attr('href');
  if (href) {
    try {
      canonical = new URL(href, url).href;
    } catch {
      canonical = undefined;
    }
  }
  const lang = ($('html').attr('lang') ?? meta.get('og:locale') ?? meta.get('content-language') ?? '').trim().replace('_', '-') || undefined;
  const h1 = $('h1').toArray().slice(0, 5).map((el) => $(el).text().replace(/\s+/g, ' ').trim()).filter(Boolean);
  return { url, ...(canonical ? { canonical } : {}), ...(lang ? { lang } : {}), meta, h1 };
}

/** Same text once case, spacing and punctuation are set aside (a name in data vs. the page's h1). */
export const sameText = (a?: string, b?: string): boolean => {
  const n = (s?: string) => (s ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  return Boolean(n(a)) && n(a) === n(b);
};
