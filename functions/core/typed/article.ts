import type { Element } from 'domhandler';
import { cssPath, inOtherRegion, textOf } from './dom-helpers.js';
import { readBreadcrumbs } from './document-breadcrumbs.js';
import { mergeReadings } from './merge.js';
import { isoDate, readArticleMeta } from './meta.js';
import { sameText } from './page-facts.js';
import type { TypedInputs } from './product.js';
import { breadcrumbsFromNodes } from './schema-breadcrumbs.js';
import { firstText, hasType, text, urlOf, values, type SchemaNode } from './schema-node.js';
import type { Article, ArticleFields, Candidate, Reading } from './types.js';

export const ARTICLE_TYPES = ['Article', 'NewsArticle', 'BlogPosting', 'Report', 'ScholarlyArticle', 'TechArticle', 'AnalysisNewsArticle', 'OpinionNewsArticle', 'ReviewNewsArticle', 'LiveBlogPosting', 'SocialMediaPosting', 'Posting'];

function readArticleNode(node: SchemaNode, pageUrl: string): Reading<ArticleFields> {
  const o = node.value;
  const r: Reading<ArticleFields> = { fields: {}, warnings: [] };
  const c = <T>(value: T, key: string, confidence = 0.95): Candidate<T> => ({ value, source: node.source, path: node.join(node.path, key), confidence });
  const headline = firstText(o, 'headline') ?? firstText(o, 'name');
  if (headline) r.fields.headline = c(headline, o.headline ? 'headline' : 'name');
  for (const [k, f] of [['datePublished', 'date_published'], ['dateModified', 'date_modified']] as const) {
    const d = firstText(o, k);
    const iso = d && isoDate(d);
    if (iso) r.fields[f] = c(iso, k);
  }
  const authors = values(o, 'author').map((a) => text(node.resolve ? node.resolve(a) : a)).filter((a): a is string => Boolean(a) && !/^https?:/.test(a!));
  if (authors.length) r.fields.authors = c([...new Set(authors)].map((name) => ({ name })), 'author', 0.9);
  const description = firstText(o, 'description');
  if (description) r.fields.description = c(description, 'description', 0.9);
  const lang = firstText(o, 'inLanguage');
  if (lang) r.fields.in_language = c(lang, 'inLanguage', 0.9);
  const image = urlOf(values(o, 'image')[0], pageUrl);
  if (image) r.fields.main_image = c({ url: image }, 'image', 0.9);
  return r;
}

/** The document's own article: a single h1, the first `<time datetime>` near it, a byline. */
function readDocumentArticle(inp: TypedInputs): Reading<ArticleFields> & { looksLikeArticle: boolean } {
  const { $ } = inp;
  const r: Reading<ArticleFields> & { looksLikeArticle: boolean } = { fields: {}, warnings: [], looksLikeArticle: false };
  const c = <T>(value: T, el: Element, confidence: number): Candidate<T> => ({ value, source: 'document', path: cssPath($, el), confidence });
  const articles = ($('article').toArray() as Element[]).filter((el) => !inOtherRegion(el));
  const h1s = ($('h1').toArray() as Element[]).filter((el) => !inOtherRegion(el));
  const h1 = h1s.length === 1 ? h1s[0] : undefined;
  if (h1) r.fields.headline = c(textOf(h1, 400), h1, 0.75);
  const scope = articles.length === 1 ? articles[0] : undefined;
  const times = ($(scope ?? 'body').find('time[datetime]').toArray() as Element[]).filter((el) => !inOtherRegion(el));
  if (times.length) {
    const iso = isoDate(times[0].attribs.datetime);
    if (iso) r.fields.date_published = c(iso, times[0], 0.7);
  }
  const by = ($(scope ?? 'body').find('[rel="author"], [class*="byline" i] a, [class*="author-name" i], [itemprop="author"]').toArray() as Element[]).filter((el) => !inOtherRegion(el));
  const names = [...new Set(by.map((el) => textOf(el, 100).replace(/^by\s+/i, '')).filter((n) => n && n.length <= 60))];
  if (names.length && names.length <= 4) r.fields.authors = c(names.map((name) => ({ name })), by[0], 0.65);
  const crumbs = readBreadcrumbs($, inp.facts.url);
  if (crumbs) r.fields.breadcrumbs = crumbs;
  const ogArticle = /article/i.test(inp.facts.meta.get('og:type') ?? '');
  r.looksLikeArticle = Boolean(h1) && (ogArticle || (Boolean(scope) && Boolean(r.fields.date_published)) || Boolean(inp.facts.meta.get('article:published_time')));
  return r;
}

/** `article`: schema.org Article and its kinds, Open Graph `article:` tags, the document. Null when the page is not an article. */
export function readArticle(inp: TypedInputs): Article | null {
  const readings: Reading<ArticleFields>[] = [];
  const warnings: string[] = [];
  let structured = false;
  for (const nodes of [inp.jsonLd, inp.microdata, inp.rdfa]) {
    const arts = nodes.filter((n) => !n.nested && hasType(n.value, ARTICLE_TYPES));
    if (!arts.length) continue;
    const own = arts.length === 1 ? arts[0] : arts.find((n) => inp.facts.h1.some((h) => sameText(h, firstText(n.value, 'headline') ?? firstText(n.value, 'name'))));
    if (!own) {
      warnings.push(`${arts[0].source}: ${arts.length} articles described and none is clearly this page's; not used`);
      continue;
    }
    structured = true;
    readings.push(readArticleNode(own, inp.facts.url));
  }
  const doc = readDocumentArticle(inp);
  if (!structured && !doc.looksLikeArticle) return null;
  readings.push(readArticleMeta(inp.facts));
  const crumbs = breadcrumbsFromNodes([...inp.jsonLd, ...inp.microdata, ...inp.rdfa], inp.facts.url);
  if (crumbs) readings.push({ fields: { breadcrumbs: crumbs }, warnings: [] });
  readings.push(doc);
  if (inp.facts.lang) readings.push({ fields: { in_language: { value: inp.facts.lang, source: 'document', path: 'html[lang]', confidence: 0.8 } }, warnings: [] });
  const article = mergeReadings<ArticleFields>(readings, warnings);
  if (inp.facts.canonical) {
    article.canonical_url = inp.facts.canonical;
    article.provenance.canonical_url = { source: 'document', path: 'link[rel=canonical]', confidence: 0.95 };
  }
  return article;
}
