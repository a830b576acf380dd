import { load } from 'cheerio';
import { extractTyped } from '../../../functions/core/typed/extract-typed.js';
import type { TypedFormat } from '../../../functions/core/typed/types.js';

export const URL_ = 'https://shop.example/p/kettle';

/** Typed data of an HTML string, as the engine reads it. */
export const typed = (html: string, formats: TypedFormat[] = ['product'], url = URL_) => extractTyped(load(html), url, formats);

/** A page: head and body. */
export const page = (body: string, head = '', lang = 'en') => `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>t</title>${head}</head><body>${body}</body></html>`;

export const ld = (data: unknown) => `<script type="application/ld+json">${JSON.stringify(data)}</script>`;
