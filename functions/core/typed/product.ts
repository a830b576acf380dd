import type { CheerioAPI } from 'cheerio';
import { readDocumentProduct } from './document-product.js';
import { readProductState, type EmbeddedState } from './embedded-state.js';
import { disagreements, mergeReadings } from './merge.js';
import { metaSaysProduct, readProductMeta } from './meta.js';
import { sameText, type PageFacts } from './page-facts.js';
import { PRODUCT_TYPES, readProductNode } from './product-schema.js';
import { hasType, firstText, urlOf, type SchemaNode } from './schema-node.js';
import { breadcrumbsFromNodes } from './schema-breadcrumbs.js';
import type { Product, ProductFields, Reading } from './types.js';

/**
 * The page's own Product among the structured items of one source: the one whose URL is the
 * page's, else the one named like the page's h1, else the only one. Several different products
 * and none of them the page's: none (the page is a listing or shows related products).
 */
export function mainProductNode(nodes: SchemaNode[], facts: PageFacts): { node?: SchemaNode; warning?: string } {
  const products = nodes.filter((n) => !n.nested && hasType(n.value, PRODUCT_TYPES));
  if (!products.length) return {};
  if (products.length === 1) return { node: products[0] };
  const own = [facts.url, facts.canonical].filter(Boolean) as string[];
  const byUrl = products.filter((n) => {
    const u = urlOf(n.value.url ?? n.value['@id'], facts.url);
    return u && own.some((o) => stripHash(o) === stripHash(u));
  });
  if (byUrl.length === 1) return { node: byUrl[0] };
  const byName = products.filter((n) => facts.h1.some((h) => sameText(h, firstText(n.value, 'name'))));
  if (byName.length >= 1 && new Set(byName.map((n) => JSON.stringify(n.value.offers ?? null))).size === 1) return { node: byName[0] };
  const names = new Set(products.map((n) => firstText(n.value, 'name') ?? ''));
  if (names.size === 1) return { node: products[0] };
  return { warning: `${products[0].source}: ${products.length} products described and none is clearly this page's; not used` };
}

const stripHash = (u: string) => u.replace(/#.*$/, '').replace(/\/$/, '');

/** Inputs the product reader shares with the other item types (read once per page). */
export interface TypedInputs {
  $: CheerioAPI;
  facts: PageFacts;
  jsonLd: SchemaNode[];
  microdata: SchemaNode[];
  rdfa: SchemaNode[];
  states: EmbeddedState[];
  parseWarnings: string[];
}

/**
 * `product`: JSON-LD, microdata, RDFa, meta tags, application state and the document, strongest
 * first, each field from the strongest source that has it. Null when no source says the page
 * is one product.
 */
export function readProduct(inp: TypedInputs): Product | null {
  const { facts } = inp;
  const readings: Reading<ProductFields>[] = [];
  const warnings: string[] = [];
  let structured = false;
  for (const nodes of [inp.jsonLd, inp.microdata, inp.rdfa]) {
    const main = mainProductNode(nodes, facts);
    if (main.warning) warnings.push(main.warning);
    if (main.node) {
      structured = true;
      readings.push(readProductNode(main.node, facts.url));
    }
  }
  const meta = readProductMeta(facts);
  const metaProduct = metaSaysProduct(facts);
  const state = readProductState(inp.states, facts);
  const doc = readDocumentProduct(inp.$, facts);
  const isProduct = structured || metaProduct || doc.looksLikeProduct || Boolean(state.fields.name);
  if (!isProduct) return null;
  // Meta tags name the page's product only when the page is one (og:title is any page's title).
  readings.push(metaProduct || structured ? meta : { fields: { main_image: meta.fields.main_image, description: meta.fields.description }, warnings: [] });
  readings.push(state);
  // The document's name is the h1; a structured name wins anyway.
  readings.push(doc);
  const crumbs = breadcrumbsFromNodes([...inp.jsonLd, ...inp.microdata, ...inp.rdfa], facts.url);
  if (crumbs) readings.splice(Math.max(0, readings.length - 2), 0, { fields: { breadcrumbs: crumbs }, warnings: [] });
  const priceWarn = disagreements(readings, 'price');
  const product = mergeReadings<ProductFields>(readings, [...inp.parseWarnings, ...warnings, ...priceWarn]);
  // A price without its currency is still the price; a currency alone is not a product's price.
  if (!product.price && product.regular_price) {
    delete product.regular_price;
    delete product.provenance.regular_price;
  }
  if (product.currency && !product.price) {
    delete product.currency;
    delete product.provenance.currency;
  }
  if (!product.url) {
    product.url = facts.url;
    product.provenance.url = { source: 'document', path: 'request URL', confidence: 1 };
  }
  if (facts.canonical) {
    product.canonical_url = facts.canonical;
    product.provenance.canonical_url = { source: 'document', path: 'link[rel=canonical]', confidence: 0.95 };
  }
  return product;
}
