/**
 * Typed data (API.md "Typed data"): the four item types a page can be read as, without a schema
 * from the caller. Every object carries where each value came from (`provenance`) and what was
 * left out because it was not clearly the page's own (`warnings`).
 */

/** The typed formats, in the order API.md lists them. */
export const TYPED_FORMATS = ['product', 'product_list', 'article', 'job_posting'] as const;
export type TypedFormat = (typeof TYPED_FORMATS)[number];

/** Where a value was read, strongest first (the order the readers are consulted in). */
export type TypedSource = 'json-ld' | 'microdata' | 'rdfa' | 'meta' | 'embedded-state' | 'document' | 'model';
export const SOURCE_ORDER: readonly TypedSource[] = ['json-ld', 'microdata', 'rdfa', 'meta', 'embedded-state', 'document', 'model'];

/** One field's provenance: the source, the JSON path or CSS selector it came from, and how sure. */
export interface FieldProvenance {
  source: TypedSource;
  path: string;
  /** 0..1 */
  confidence: number;
}

/** What every typed object carries besides its fields. */
export interface TypedEnvelope {
  provenance: Record<string, FieldProvenance>;
  warnings: string[];
}

export type Availability = 'InStock' | 'OutOfStock' | 'PreOrder' | 'BackOrder' | 'LimitedAvailability' | 'Discontinued';
export const AVAILABILITIES: readonly Availability[] = ['InStock', 'OutOfStock', 'PreOrder', 'BackOrder', 'LimitedAvailability', 'Discontinued'];

export interface Named {
  name: string;
}
export interface Link {
  name?: string;
  url?: string;
}
export interface ImageRef {
  url: string;
}

export interface ProductFields {
  name?: string;
  price?: string;
  regular_price?: string;
  currency?: string;
  currency_raw?: string;
  availability?: Availability;
  sku?: string;
  mpn?: string;
  gtin?: { type: string; value: string }[];
  brand?: Named;
  description?: string;
  main_image?: ImageRef;
  images?: ImageRef[];
  aggregate_rating?: { rating_value?: number; best_rating?: number; review_count?: number };
  breadcrumbs?: Link[];
  features?: string[];
  additional_properties?: { name: string; value: string }[];
  variants?: { name?: string; sku?: string; price?: string; currency?: string; availability?: Availability; url?: string }[];
  url?: string;
  canonical_url?: string;
}
export type Product = ProductFields & TypedEnvelope;

export interface ListedProduct {
  name?: string;
  url?: string;
  price?: string;
  regular_price?: string;
  currency?: string;
  availability?: Availability;
  main_image?: ImageRef;
}

export interface ProductListFields {
  category_name?: string;
  page_number?: number;
  next_page_url?: string;
  breadcrumbs?: Link[];
  products?: ListedProduct[];
}
export type ProductList = ProductListFields & TypedEnvelope;

export interface ArticleFields {
  headline?: string;
  date_published?: string;
  date_modified?: string;
  authors?: Named[];
  description?: string;
  in_language?: string;
  main_image?: ImageRef;
  breadcrumbs?: Link[];
  canonical_url?: string;
}
export type Article = ArticleFields & TypedEnvelope;

export interface JobPostingFields {
  job_title?: string;
  date_published?: string;
  valid_through?: string;
  hiring_organization?: Named;
  job_location?: { raw: string };
  employment_type?: string;
  remote_status?: 'Remote' | 'Hybrid' | 'OnSite';
  base_salary?: { raw?: string; value_min?: string; value_max?: string; currency?: string; rate_type?: string };
  description?: string;
  url?: string;
}
export type JobPosting = JobPostingFields & TypedEnvelope;

/** The typed objects of one page, each `null` when the page is not of that kind. */
export interface TypedData {
  product?: Product | null;
  product_list?: ProductList | null;
  article?: Article | null;
  job_posting?: JobPosting | null;
}

/** A value one reader found for one field, with where it found it. */
export interface Candidate<T = unknown> {
  value: T;
  source: TypedSource;
  path: string;
  confidence: number;
}

/** One reader's answer for one item type: candidates by field, and what it refused to guess. */
export interface Reading<F> {
  fields: { [K in keyof F]?: Candidate<F[K]> };
  warnings: string[];
}

export const emptyReading = <F>(): Reading<F> => ({ fields: {}, warnings: [] });
