// Typed data as people read it (API.md "Typed data"): a product, a product list, an article or
// a job posting shown as a card of labelled fields, each with where it was found (its
// provenance: JSON-LD, microdata, meta tags, the page's embedded state, the document, a model)
// and how sure that is; a page's kind (metadata.page_kind) as a small label; a change as a
// status badge. No raw JSON: nested values are written out in words.
import { h, extLink, badge } from './dom.js';
import { whenWords } from './words.js';

/** The typed formats, in the order their cards are shown, with the name people read. */
export const TYPED_KINDS = [['product', 'Product'], ['product_list', 'Product list'], ['article', 'Article'], ['job_posting', 'Job posting']];
const TYPED = new Set(TYPED_KINDS.map(([k]) => k));
export const isTypedKey = (k) => TYPED.has(k);

/** Where a value was read from, in words. */
const SOURCES = {
  'json-ld': 'structured data (JSON-LD)',
  microdata: 'microdata',
  rdfa: 'RDFa',
  meta: 'meta tags',
  'embedded-state': 'the page\'s embedded state',
  document: 'the page\'s text',
  model: 'a model (guessed from the text)',
};

/** Page kinds (metadata.page_kind) in words. */
const PAGE_KINDS = { article: 'Article', forum: 'Forum', product: 'Product', collection: 'Collection', listing: 'Listing', documentation: 'Documentation', service: 'Service', other: 'Other page' };

/** The small label of a page's kind, or null when the item has none. */
export function pageKindLabel(it) {
  const k = it?.data?.metadata?.page_kind ?? it?.metadata?.page_kind;
  // "other" says nothing a reader can use: no label.
  if (typeof k !== 'string' || !k || k === 'other') return null;
  return h('span', { class: 'badge badge-kind page-kind', title: 'What kind of page this is (read from the page)' }, PAGE_KINDS[k] ?? k.replace(/_/g, ' '));
}

const FIELD_WORDS = {
  name: 'Name', price: 'Price', regular_price: 'Regular price', currency: 'Currency', currency_raw: 'Currency as written', availability: 'Availability', sku: 'SKU', mpn: 'MPN', gtin: 'GTIN',
  brand: 'Brand', description: 'Description', main_image: 'Main image', images: 'Images', aggregate_rating: 'Rating', breadcrumbs: 'Breadcrumbs', features: 'Features',
  additional_properties: 'Other properties', variants: 'Variants', url: 'URL', canonical_url: 'Canonical URL', category_name: 'Category', page_number: 'Page', next_page_url: 'Next page',
  products: 'Products', headline: 'Headline', date_published: 'Published', date_modified: 'Modified', authors: 'Authors', in_language: 'Language', job_title: 'Job title',
  valid_through: 'Open until', hiring_organization: 'Employer', job_location: 'Location', employment_type: 'Employment type', remote_status: 'Remote', base_salary: 'Salary',
};
const fieldWords = (k) => FIELD_WORDS[k] ?? String(k).replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
const AVAILABILITY = { InStock: 'In stock', OutOfStock: 'Out of stock', PreOrder: 'Pre-order', BackOrder: 'Back order', LimitedAvailability: 'Limited availability', Discontinued: 'Discontinued' };

/** "1299.00 EUR" */
const money = (amount, currency) => [amount, currency].filter((x) => x !== undefined && x !== null && x !== '').join(' ');

/** A value of a typed field in words: names, prices, ratings, lists; never JSON. */
export function valueWords(key, v) {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string') {
    if (key === 'availability') return AVAILABILITY[v] ?? v;
    if (/^date_|valid_through/.test(key) && /^\d{4}-\d{2}-\d{2}/.test(v)) return whenWords(v).replace(/ at 00:00$/, '');
    return v;
  }
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    if (!v.length) return '—';
    return v.map((x) => (x && typeof x === 'object' ? objectWords(key, x) : String(x))).join(key === 'breadcrumbs' ? ' › ' : ' · ');
  }
  return objectWords(key, v);
}

/** One nested object in words: a brand by its name, a rating as "4.5 of 5 (120 reviews)", a salary as a range. */
function objectWords(key, o) {
  if (key === 'aggregate_rating') return `${o.rating_value ?? '?'}${o.best_rating ? ` of ${o.best_rating}` : ''}${o.review_count ? ` (${o.review_count} reviews)` : ''}`;
  if (key === 'base_salary') return o.raw ?? `${money([o.value_min, o.value_max].filter((x) => x != null).join('–'), o.currency)}${o.rate_type ? ` per ${String(o.rate_type).toLowerCase()}` : ''}`;
  if (key === 'gtin') return `${o.type ?? 'GTIN'} ${o.value ?? ''}`.trim();
  if (key === 'additional_properties') return `${o.name}: ${o.value}`;
  if (key === 'products' || key === 'variants') return [o.name ?? o.sku ?? o.url, money(o.price, o.currency), o.availability ? AVAILABILITY[o.availability] ?? o.availability : null].filter(Boolean).join(', ');
  if (typeof o.name === 'string') return o.name;
  if (typeof o.url === 'string') return o.url;
  if (typeof o.raw === 'string') return o.raw;
  return Object.entries(o).filter(([, x]) => x !== null && typeof x !== 'object').map(([k, x]) => `${fieldWords(k)}: ${x}`).join(', ') || '—';
}

/** A one-line summary of a typed object for a table cell: "Trail shoe · 89.90 EUR · In stock". */
export function typedSummary(kind, o) {
  if (!o || typeof o !== 'object') return '—';
  switch (kind) {
    case 'product':
      return [o.name, money(o.price, o.currency), o.availability ? AVAILABILITY[o.availability] ?? o.availability : null].filter(Boolean).join(' · ') || 'Product';
    case 'product_list':
      return `${o.category_name ? `${o.category_name}: ` : ''}${(o.products ?? []).length} product${(o.products ?? []).length === 1 ? '' : 's'}`;
    case 'article':
      return [o.headline, (o.authors ?? []).map((a) => a?.name).filter(Boolean).join(', ')].filter(Boolean).join(' · ') || 'Article';
    case 'job_posting':
      return [o.job_title, o.hiring_organization?.name, o.job_location?.raw].filter(Boolean).join(' · ') || 'Job posting';
    default:
      return '—';
  }
}

/** Where a field came from: "structured data (JSON-LD), sure" with the path on hover. */
function sourceCell(p) {
  if (!p) return h('span', { class: 'hint' }, 'not recorded');
  const conf = typeof p.confidence === 'number' ? p.confidence : null;
  const sure = conf === null ? '' : conf >= 0.9 ? 'sure' : conf >= 0.6 ? 'fairly sure' : 'a guess';
  return h('span', { class: 'provenance', title: [p.path ? `Read from ${p.path}` : null, conf !== null ? `confidence ${Math.round(conf * 100)}%` : null].filter(Boolean).join(' · ') },
    SOURCES[p.source] ?? String(p.source ?? 'unknown'), sure ? h('span', { class: 'hint' }, ` · ${sure}${conf !== null ? ` (${Math.round(conf * 100)}%)` : ''}`) : null);
}

const URLISH = new Set(['url', 'canonical_url', 'next_page_url']);

/**
 * The card of one typed object: its kind, then one row per field with its value in words and
 * its source (provenance), warnings last. null when `o` is not an object (the page was not of that kind).
 */
export function typedCard(kind, o) {
  if (!o || typeof o !== 'object') return null;
  const label = TYPED_KINDS.find(([k]) => k === kind)?.[1] ?? kind;
  const prov = o.provenance && typeof o.provenance === 'object' ? o.provenance : {};
  const rows = Object.entries(o).filter(([k, v]) => k !== 'provenance' && k !== 'warnings' && v !== null && v !== undefined && !(Array.isArray(v) && !v.length));
  const img = o.main_image?.url;
  return h('section', { class: 'typed-card', dataset: { kind }, 'aria-label': label },
    h('div', { class: 'typed-head' }, h('span', { class: 'badge badge-kind' }, label), h('strong', {}, typedSummary(kind, o))),
    img ? h('p', { class: 'hint break' }, 'Image: ', extLink(img, img)) : null,
    h('table', { class: 'typed-fields' },
      h('caption', { class: 'sr-only' }, `${label}: fields and where each was found`),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Field'), h('th', { scope: 'col' }, 'Value'), h('th', { scope: 'col' }, 'Found in'))),
      h('tbody', {}, rows.map(([k, v]) => h('tr', { dataset: { field: k } },
        h('th', { scope: 'row' }, fieldWords(k)),
        h('td', { class: 'break' }, URLISH.has(k) && typeof v === 'string' ? extLink(v, v) : valueWords(k, v)),
        h('td', {}, sourceCell(prov[k])))))),
    Array.isArray(o.warnings) && o.warnings.length ? h('ul', { class: 'typed-warnings hint' }, o.warnings.map((w) => h('li', {}, String(w)))) : null);
}

/** Every typed object of an item as cards (in TYPED_KINDS order), or null when it has none. */
export function typedCards(it) {
  const d = it?.data ?? it ?? {};
  const cards = TYPED_KINDS.map(([k]) => typedCard(k, d[k])).filter(Boolean);
  return cards.length ? h('div', { class: 'typed-cards' }, cards) : null;
}

const CHANGE_KIND = { new: 'succeeded', changed: 'running', removed: 'failed', same: 'cancelled', unavailable: 'blocked' };
const CHANGE_WORDS = { new: 'new', changed: 'changed', removed: 'removed', same: 'same', unavailable: 'could not compare' };

/**
 * A change (data.change: { status, previous_fetched_at, … }) as a status badge; new, changed and
 * removed link to the change with its diff (the Changes page finds it by URL and run).
 */
export function changeBadge(change, { url, runId, tag } = {}) {
  if (!change || typeof change !== 'object' || !change.status) return '—';
  const b = badge(CHANGE_WORDS[change.status] ?? change.status, CHANGE_KIND[change.status] ?? 'cancelled');
  const lines = change.added_lines || change.removed_lines ? ` +${change.added_lines ?? 0} −${change.removed_lines ?? 0}` : '';
  const since = change.previous_fetched_at ? `compared with the copy from ${whenWords(change.previous_fetched_at)}` : 'first copy of this page';
  if (!['new', 'changed', 'removed'].includes(change.status) || !url) return h('span', { class: 'change-cell', title: since }, b);
  const q = new URLSearchParams({ url });
  if (runId) q.set('run_id', runId);
  if (tag) q.set('tag', tag);
  return h('a', { class: 'change-cell change-link', href: `#/changes?${q}`, title: `${since}: open the diff` }, b, lines ? h('span', { class: 'hint' }, lines) : null);
}
