import { TYPED_FORMATS, type TypedFormat } from './types.js';

/**
 * CSV columns of the typed objects (run export): named, stable columns per item type, the same
 * whatever the first page held, so a spreadsheet of prices keeps its shape. Nested values read
 * flat (`product.brand` is the brand's name); lists that have no flat form are JSON in one cell.
 */
type Get = (o: Record<string, unknown>) => unknown;
const at = (...keys: string[]): Get => (o) => keys.reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), o);
const names = (key: string): Get => (o) => (Array.isArray(o[key]) ? (o[key] as { name?: string }[]).map((x) => x?.name).filter(Boolean).join(' > ') : undefined);
const list = (key: string, sub: string): Get => (o) => (Array.isArray(o[key]) ? (o[key] as Record<string, unknown>[]).map((x) => x?.[sub]).filter(Boolean).join(' ') : undefined);

const COLUMNS: Record<TypedFormat, [string, Get][]> = {
  product: [
    ['name', at('name')], ['price', at('price')], ['regular_price', at('regular_price')], ['currency', at('currency')], ['availability', at('availability')],
    ['sku', at('sku')], ['mpn', at('mpn')], ['gtin', list('gtin', 'value')], ['brand', at('brand', 'name')], ['rating_value', at('aggregate_rating', 'rating_value')],
    ['review_count', at('aggregate_rating', 'review_count')], ['main_image', at('main_image', 'url')], ['breadcrumbs', names('breadcrumbs')], ['url', at('url')],
    ['canonical_url', at('canonical_url')], ['description', at('description')], ['variants', at('variants')],
  ],
  product_list: [
    ['category_name', at('category_name')], ['page_number', at('page_number')], ['next_page_url', at('next_page_url')], ['product_count', (o) => (Array.isArray(o.products) ? o.products.length : undefined)],
    ['breadcrumbs', names('breadcrumbs')], ['products', at('products')],
  ],
  article: [
    ['headline', at('headline')], ['date_published', at('date_published')], ['date_modified', at('date_modified')], ['authors', names('authors')],
    ['in_language', at('in_language')], ['description', at('description')], ['main_image', at('main_image', 'url')], ['canonical_url', at('canonical_url')],
  ],
  job_posting: [
    ['job_title', at('job_title')], ['hiring_organization', at('hiring_organization', 'name')], ['job_location', at('job_location', 'raw')], ['employment_type', at('employment_type')],
    ['remote_status', at('remote_status')], ['date_published', at('date_published')], ['valid_through', at('valid_through')], ['salary', at('base_salary', 'raw')],
    ['salary_min', at('base_salary', 'value_min')], ['salary_max', at('base_salary', 'value_max')], ['salary_currency', at('base_salary', 'currency')],
    ['salary_rate', at('base_salary', 'rate_type')], ['url', at('url')], ['description', at('description')],
  ],
};

/** Every typed object also gets its warnings (joined) and the source of each value (`field=source` pairs). */
const TAIL: [string, Get][] = [
  ['warnings', (o) => (Array.isArray(o.warnings) && o.warnings.length ? o.warnings.join('; ') : undefined)],
  ['sources', (o) => (o.provenance && typeof o.provenance === 'object' ? Object.entries(o.provenance as Record<string, { source?: string }>).map(([k, p]) => `${k}=${p?.source}`).join(' ') : undefined)],
];

export const isTypedFormat = (k: string): k is TypedFormat => (TYPED_FORMATS as readonly string[]).includes(k);

/** The CSV column names a typed data field becomes (`product.price`, …). */
export const typedColumns = (format: TypedFormat): string[] => [...COLUMNS[format], ...TAIL].map(([c]) => `${format}.${c}`);

/** The value of typed column `column` (`product.price`) in an item's data, or undefined when it is not a typed column. */
export function typedCell(data: Record<string, unknown> | undefined, column: string): { value: unknown } | undefined {
  const dot = column.indexOf('.');
  if (dot < 0) return undefined;
  const format = column.slice(0, dot);
  if (!isTypedFormat(format)) return undefined;
  const name = column.slice(dot + 1);
  const get = [...COLUMNS[format], ...TAIL].find(([c]) => c === name)?.[1];
  if (!get) return undefined;
  const obj = data?.[format];
  return { value: obj && typeof obj === 'object' ? get(obj as Record<string, unknown>) : undefined };
}
