import { readFileSync } from 'node:fs';
import type { TypedFormat } from '../functions/core/typed/types.js';

/**
 * The typed-data bench corpus: pages and their hand-checked truth.
 * - `zyte`: the synthetic shop and job board of zytedata/zyte-test-websites (MIT), rendered here as
 *   its Jinja templates render them (bench/data/typed/zyte/README.md); its JSON data is the truth.
 *   No structured data at all: the document path only.
 * - `own`: product pages written for this bench, modelled on real shops (Shopify, WooCommerce,
 *   Magento, a German, a French, a Japanese and a Polish shop, a Next.js storefront), with and
 *   without structured data, labelled by hand: `truth` lists what a person reads on the page as
 *   the page's own price, currency, availability and SKU (`null`: the page does not say clearly).
 */
export interface CorpusPage {
  id: string;
  set: 'zyte' | 'own';
  url: string;
  html: string;
  format: TypedFormat;
  /** Field -> expected value (null: must be absent). Fields not listed are not scored. */
  truth: Record<string, string | number | null>;
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const DATA = new URL('./data/typed/zyte/', import.meta.url);

interface ZProduct { id: number; category_id: number; name: string; description: string; price: string; instock: boolean; properties: Record<string, string>; rating: number }
interface ZCat { id: number; name: string; parent: number | null }
interface ZJob { id: number; category_id: number; title: string; date_published: string; description: string; salary: string; experience: string; work_type: string; contact_name: string; contact_phone: string; benefits: string[]; responsibilities: string; company_name: string; location: string }

const head = (title: string) => `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>${esc(title)}</title>\n</head>`;

function crumbs(cats: Map<number, ZCat>, id: number): string {
  const chain: ZCat[] = [];
  for (let c: ZCat | undefined = cats.get(id); c; c = c.parent === null ? undefined : cats.get(c.parent)) chain.unshift(c);
  const items = chain.map((c, i) => (i === chain.length - 1 ? `<li class="breadcrumb-item active" aria-current="page">${esc(c.name)}</li>` : `<li class="breadcrumb-item">\n<a href="/category/${c.id}">${esc(c.name)}</a>\n</li>`));
  return `<nav aria-label="breadcrumb">\n<ol class="breadcrumb">\n<li class="breadcrumb-item">\n<a href="/">Home</a>\n</li>\n${items.join('\n')}\n</ol>\n</nav>`;
}
const rating = (n: number) => `<div class="rating">\n${Array.from({ length: 5 }, (_, i) => (i < n ? '<span class="star filled">★</span>' : '<span class="star">☆</span>')).join('\n')}\n</div>`;
const pagination = (page: number, total: number, base: string) => `<nav>\n<ul class="pagination">\n${page > 1 ? `<li class="page-item prev"><a class="page-link" href="${base}?page=${page - 1}">← Previous</a></li>` : '<li class="page-item prev disabled"><span class="page-link">← Previous</span></li>'}\n${Array.from({ length: total }, (_, i) => (i + 1 === page ? `<li class="page-item active"><span class="page-link">${i + 1}</span></li>` : `<li class="page-item"><a class="page-link" href="${base}?page=${i + 1}">${i + 1}</a></li>`)).join('\n')}\n${page < total ? `<li class="page-item next"><a class="page-link" href="${base}?page=${page + 1}">Next →</a></li>` : '<li class="page-item next disabled"><span class="page-link">Next →</span></li>'}\n</ul>\n</nav>`;

/** zyte-test-websites' product detail, category and job detail templates, rendered from its data. */
function zytePages(): CorpusPage[] {
  const shop = JSON.parse(readFileSync(new URL('ecommerce.json', DATA), 'utf8')) as { categories: ZCat[]; products: ZProduct[] };
  const cats = new Map(shop.categories.map((c) => [c.id, c]));
  const pages: CorpusPage[] = [];
  const base = 'http://127.0.0.1:8080';
  for (const p of shop.products) {
    const props = Object.entries(p.properties).map(([k, v]) => `<dt class="col-sm-2">${esc(k)}</dt>\n<dd class="col-sm-10">\n${esc(v)}\n</dd>`).join('\n');
    const html = `${head(p.name)}\n<body>\n<main class="container">\n${crumbs(cats, p.category_id)}\n<h1>${esc(p.name)}</h1>\n${rating(p.rating)}\n<p class="mb-0">Price: ${esc(p.price)}</p>\n${p.instock ? '<p class="mb-0">In stock</p>' : '<p class="mb-0">Out of stock</p>'}\n<h2>Product Description</h2>\n<p>${esc(p.description)}</p>\n<h2>Product Information</h2>\n<dl class="row">\n${props}\n</dl>\n</main>\n</body>\n</html>`;
    pages.push({
      id: `zyte-product-${p.id}`, set: 'zyte', url: `${base}/product/${p.id}`, html, format: 'product',
      truth: { name: p.name, price: p.price.replace(/[^\d.]/g, ''), currency: 'GBP', availability: p.instock ? 'InStock' : 'OutOfStock', sku: p.properties.UPC ?? null },
    });
  }
  // Category pages: the products of each leaf category in the subset, 10 a page, sorted by name.
  const byCat = new Map<number, ZProduct[]>();
  for (const p of shop.products) byCat.set(p.category_id, [...(byCat.get(p.category_id) ?? []), p]);
  for (const [id, list] of [...byCat].filter(([, l]) => l.length >= 3).slice(0, 12)) {
    const sorted = [...list].sort((a, b) => (a.name < b.name ? -1 : 1)).slice(0, 10);
    const items = sorted.map((p) => `<li class="product-li">\n<a class="product-link" href="/product/${p.id}">${esc(p.name)}</a>\n<p class="mb-0">${esc(p.price)}</p>\n${p.instock ? '<p class="mb-0">In stock</p>' : '<p class="mb-0">Out of stock</p>'}\n${rating(p.rating)}\n</li>`).join('\n');
    const html = `${head(`Products in ${cats.get(id)!.name}`)}\n<body>\n<main class="container">\n${crumbs(cats, id)}\n<h1>${esc(cats.get(id)!.name)}</h1>\n<h2>${list.length} products:</h2>\n<ol id="products" start="1">\n${items}\n</ol>\n${pagination(1, 2, `/category/${id}`)}\n</main>\n</body>\n</html>`;
    pages.push({
      id: `zyte-category-${id}`, set: 'zyte', url: `${base}/category/${id}`, html, format: 'product_list',
      truth: { category_name: cats.get(id)!.name, product_count: sorted.length, product_urls: sorted.map((p) => `${base}/product/${p.id}`).join(' '), product_prices: sorted.map((p) => p.price.replace(/[^\d.]/g, '')).join(' '), next_page_url: `${base}/category/${id}?page=2`, page_number: 1 },
    });
  }
  const board = JSON.parse(readFileSync(new URL('jobs.json', DATA), 'utf8')) as { categories: ZCat[]; jobs: ZJob[] };
  const jcats = new Map(board.categories.map((c) => [c.id, c]));
  const fmtDate = (iso: string) => new Date(`${iso}Z`).toLocaleDateString('en-US', { month: 'short', day: '2-digit', year: 'numeric', timeZone: 'UTC' });
  for (const j of board.jobs) {
    const html = `${head(`${j.title} Job`)}\n<body>\n<main class="container">\n<h1>${esc(j.title)}</h1>\n<p class="job-date">Published on ${fmtDate(j.date_published)}</p>\n<h6>\n<span class="job-category">\n<a class="job-category-link" href="/jobs/${j.category_id}">${esc(jcats.get(j.category_id)?.name ?? '')}</a>\n</span>\n·\n<span class="job-company">${esc(j.company_name)}</span>\n·\n<span class="job-work-type">${esc(j.work_type)}</span>\n·\n<span class="job-location">${esc(j.location)}</span>\n</h6>\n<dl class="row">\n<dt class="col-sm-2">Job description</dt>\n<dd class="col-sm-10">\n${esc(j.description)}\n</dd>\n<dt class="col-sm-2">Required experience</dt>\n<dd class="col-sm-10">\n${esc(j.experience)}\n</dd>\n<dt class="col-sm-2">Salary range</dt>\n<dd class="col-sm-10">\n${esc(j.salary)}\n</dd>\n<dt class="col-sm-2">Responsibilities</dt>\n<dd class="col-sm-10">\n${esc(j.responsibilities)}\n</dd>\n<dt class="col-sm-2">Benefits</dt>\n<dd class="col-sm-10">\n<ul>\n${j.benefits.map((b) => `<li>${esc(b)}</li>`).join('')}\n</ul>\n</dd>\n<dt class="col-sm-2">Contact</dt>\n<dd class="col-sm-10">\n<span>${esc(j.contact_name)}</span>\n(<span class="phone">${esc(j.contact_phone)}</span>)\n</dd>\n</dl>\n</main>\n</body>\n</html>`;
    pages.push({
      id: `zyte-job-${j.id}`, set: 'zyte', url: `${base}/job/${j.id}`, html, format: 'job_posting',
      truth: { job_title: j.title, date_published: j.date_published.slice(0, 10), hiring_organization: j.company_name, job_location: j.location, employment_type: j.work_type, salary: j.salary },
    });
  }
  return pages;
}

export function corpus(): CorpusPage[] {
  return [...zytePages(), ...ownPages()];
}

import { ownPages } from './typed-own-pages.js';
