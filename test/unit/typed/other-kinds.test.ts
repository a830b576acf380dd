import { describe, expect, it } from 'vitest';
import { ld, page, typed } from './helpers.js';

describe('typed product_list', () => {
  it('reads repeated product cards with their URL, price, struck price and stock, and the pagination', () => {
    const card = (i: number, extra = '') => `<li class="product-card"><a href="/p/${i}"><img src="/i/${i}.jpg"></a><h3 class="title"><a href="/p/${i}">Mug ${i}</a></h3>${extra}<span class="price">€${i}.50</span></li>`;
    const html = page(`<main><h1>Mugs</h1><ul class="grid">${card(1)}${card(2, '<del>€9.00</del>')}${card(3, '<p>Sold out</p>')}</ul>
      <nav class="pagination"><span class="current">1</span><a href="?page=2" rel="next">Next</a></nav></main>`);
    const list = typed(html, ['product', 'product_list'], 'https://shop.example/c/mugs').product_list!;
    expect(list).toMatchObject({ category_name: 'Mugs', page_number: 1, next_page_url: 'https://shop.example/c/mugs?page=2' });
    expect(list.products).toEqual([
      { name: 'Mug 1', url: 'https://shop.example/p/1', price: '1.50', currency: 'EUR', main_image: { url: 'https://shop.example/i/1.jpg' } },
      { name: 'Mug 2', url: 'https://shop.example/p/2', price: '2.50', currency: 'EUR', regular_price: '9.00', main_image: { url: 'https://shop.example/i/2.jpg' } },
      { name: 'Mug 3', url: 'https://shop.example/p/3', price: '3.50', currency: 'EUR', availability: 'OutOfStock', main_image: { url: 'https://shop.example/i/3.jpg' } },
    ]);
    expect(list.provenance.products.source).toBe('document');
  });

  it('reads a JSON-LD ItemList of products and is null on a page that lists none', () => {
    const html = page('', ld({ '@type': 'ItemList', itemListElement: [{ '@type': 'ListItem', position: 1, item: { '@type': 'Product', name: 'A', url: '/a', offers: { '@type': 'Offer', price: 3, priceCurrency: 'USD' } } }, { '@type': 'ListItem', position: 2, url: '/b' }] }));
    expect(typed(html, ['product_list']).product_list!.products).toEqual([{ name: 'A', url: 'https://shop.example/a', price: '3.00', currency: 'USD' }, { url: 'https://shop.example/b' }]);
    expect(typed(page('<h1>About</h1><p>Text.</p>'), ['product_list']).product_list).toBeNull();
  });
});

describe('typed article', () => {
  it('reads a NewsArticle from JSON-LD with authors and dates, and the page language', () => {
    const html = page('<article><h1>Rates rise</h1><p>Body.</p></article>', ld({ '@type': 'NewsArticle', headline: 'Rates rise', datePublished: '2026-11-30T08:00:00Z', author: [{ '@type': 'Person', name: 'Ann Lee' }, { '@type': 'Person', name: 'Bo Chan' }], image: '/i.jpg' }), 'en-GB');
    const a = typed(html, ['article']).article!;
    expect(a).toMatchObject({ headline: 'Rates rise', date_published: '2026-11-30T08:00:00Z', authors: [{ name: 'Ann Lee' }, { name: 'Bo Chan' }], in_language: 'en-GB', main_image: { url: 'https://shop.example/i.jpg' } });
    expect(a.provenance.date_published.source).toBe('json-ld');
  });

  it('reads an article from Open Graph tags and the document, and is null on a product page', () => {
    const html = page('<article><h1>Field notes</h1><p class="byline">By <a rel="author" href="/a/kim">Kim Park</a></p><time datetime="2026-10-01">1 Oct</time><p>Body.</p></article>', '<meta property="og:type" content="article"><meta property="article:published_time" content="2026-10-01T09:30:00+02:00">');
    expect(typed(html, ['article']).article).toMatchObject({ headline: 'Field notes', date_published: '2026-10-01T09:30:00+02:00', authors: [{ name: 'Kim Park' }] });
    expect(typed(page('<h1>Kettle</h1>', ld({ '@type': 'Product', name: 'Kettle' })), ['article']).article).toBeNull();
  });
});

describe('typed job_posting', () => {
  it('reads a JobPosting from JSON-LD with salary, location and remote status', () => {
    const html = page('<h1>Data engineer</h1>', ld({ '@type': 'JobPosting', title: 'Data engineer', datePosted: '2026-11-02', validThrough: '2026-12-31', employmentType: ['FULL_TIME'], hiringOrganization: { '@type': 'Organization', name: 'Acme' }, jobLocationType: 'TELECOMMUTE', baseSalary: { '@type': 'MonetaryAmount', currency: 'EUR', value: { '@type': 'QuantitativeValue', minValue: 60000, maxValue: 75000, unitText: 'YEAR' } }, description: '<p>Build <b>pipelines</b>.</p>' }));
    expect(typed(html, ['job_posting']).job_posting).toMatchObject({
      job_title: 'Data engineer', date_published: '2026-11-02', valid_through: '2026-12-31', employment_type: 'FULL_TIME', hiring_organization: { name: 'Acme' }, remote_status: 'Remote',
      base_salary: { value_min: '60000.00', value_max: '75000.00', currency: 'EUR', rate_type: 'yearly' }, description: 'Build pipelines .',
    });
  });

  it('reads a job from labelled rows in the document, and refuses a list of postings', () => {
    const html = page('<main><h1>Barista</h1><p class="posted">Posted on Nov 3, 2026</p><dl><dt>Company</dt><dd>Bean Bar</dd><dt>Location</dt><dd>Lisbon, Portugal</dd><dt>Job type</dt><dd>Part-time</dd><dt>Salary</dt><dd>€9.50 per hour</dd></dl><a href="/apply">Apply now</a></main>');
    expect(typed(html, ['job_posting']).job_posting).toMatchObject({ job_title: 'Barista', date_published: '2026-11-03', hiring_organization: { name: 'Bean Bar' }, job_location: { raw: 'Lisbon, Portugal' }, employment_type: 'Part-time', base_salary: { raw: '€9.50 per hour', value_min: '9.50', currency: 'EUR', rate_type: 'hourly' } });
    const list = page('<h1>Jobs</h1>', ld([{ '@type': 'JobPosting', title: 'A' }, { '@type': 'JobPosting', title: 'B' }]));
    expect(typed(list, ['job_posting']).job_posting).toBeNull();
  });
});
