/**
 * `metadata.page_kind` values (API.md): a module of its own, free of the parser, so the API's
 * request and response contracts can name them without carrying the HTML stack.
 */
export type PageKind = 'article' | 'forum' | 'product' | 'collection' | 'listing' | 'documentation' | 'service' | 'other';
export const PAGE_KINDS: readonly PageKind[] = ['article', 'forum', 'product', 'collection', 'listing', 'documentation', 'service', 'other'];
