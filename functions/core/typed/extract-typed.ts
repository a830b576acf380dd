import type { CheerioAPI } from 'cheerio';
import { readArticle } from './article.js';
import { readEmbeddedState } from './embedded-state.js';
import { readJobPosting } from './job-posting.js';
import { readJsonLd } from './json-ld.js';
import { readMicrodata } from './microdata.js';
import { pageFacts } from './page-facts.js';
import { readProduct, type TypedInputs } from './product.js';
import { readProductList } from './product-list.js';
import { readRdfa } from './rdfa.js';
import { TYPED_FORMATS, type TypedData, type TypedFormat } from './types.js';

/** The typed formats among a request's formats. */
export const typedFormatsOf = (formats: Iterable<string>): TypedFormat[] => {
  const f = new Set(formats);
  return TYPED_FORMATS.filter((t) => f.has(t));
};

/**
 * The typed objects `formats` asks for, read from one parsed page without a schema (API.md
 * "Typed data"). Pure: the tree is only read, nothing is fetched, the same page always gives the
 * same answer. Each reader (JSON-LD, microdata, RDFa, meta tags, application state, the document)
 * runs once; each item type merges their candidates strongest first and fails closed.
 *
 * @param $ the page as loaded (before main-content cleaning)
 * @param url the page's final URL (relative links are resolved against it)
 */
export function extractTyped($: CheerioAPI, url: string, formats: readonly TypedFormat[]): TypedData {
  if (!formats.length) return {};
  const ld = readJsonLd($);
  const inp: TypedInputs = {
    $,
    facts: pageFacts($, url),
    jsonLd: ld.nodes,
    microdata: readMicrodata($),
    rdfa: readRdfa($),
    states: formats.includes('product') || formats.includes('product_list') ? readEmbeddedState($) : [],
    parseWarnings: ld.warnings,
  };
  const out: TypedData = {};
  const wantProduct = formats.includes('product') || formats.includes('product_list');
  const product = wantProduct ? readProduct(inp) : null;
  if (formats.includes('product')) out.product = product;
  if (formats.includes('product_list')) out.product_list = readProductList(inp, Boolean(product));
  if (formats.includes('article')) out.article = readArticle(inp);
  if (formats.includes('job_posting')) out.job_posting = readJobPosting(inp);
  return out;
}
