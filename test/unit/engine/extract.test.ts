import { describe, expect, it } from 'vitest';
import { extractFields, extractItems, fieldsSchema, nextPageUrl } from '../../../functions/core/engine/extract.js';
import { productsPage } from '../../fixtures/site/pages.js';

const URL1 = 'http://127.0.0.1:4100/products?page=1';

describe('extractFields', () => {
  it('takes the first match text by default, attributes when asked, every match with all', () => {
    const out = extractFields(productsPage(1, 3), URL1, {
      heading: { selector: 'h1' },
      first_name: { selector: '.product .name' },
      names: { selector: '.product .name', all: true },
      ids: { selector: '.product', attr: 'data-id', all: true },
      detail: { selector: 'a.detail', attr: 'href' },
      next: { selector: 'a.next', attr: 'href' },
      missing: { selector: '.nope' },
      missing_all: { selector: '.nope', all: true },
    });
    expect(out).toEqual({
      heading: 'Products (page 1 of 3)',
      first_name: 'Product 1',
      names: ['Product 1', 'Product 2', 'Product 3', 'Product 4'],
      ids: ['1', '2', '3', '4'],
      detail: 'http://127.0.0.1:4100/products/1',
      next: 'http://127.0.0.1:4100/products?page=2',
      missing: null,
      missing_all: [],
    });
  });

  it('returns null rather than throwing on an invalid selector', () => {
    expect(extractFields('<p>x</p>', URL1, { bad: { selector: 'p[[' } })).toEqual({ bad: null });
  });
});

describe('extractItems', () => {
  it('yields one record per item with fields scoped to it', () => {
    const items = extractItems(productsPage(2, 3), URL1, 'li.product', {
      name: { selector: '.name' },
      price: { selector: '.price' },
    });
    expect(items).toHaveLength(4);
    expect(items[0]).toEqual({ name: 'Product 5', price: '$12.50' });
  });
});

describe('nextPageUrl', () => {
  it('resolves the next link and returns null on the last page', () => {
    expect(nextPageUrl(productsPage(1, 3), URL1, 'a.next')).toBe('http://127.0.0.1:4100/products?page=2');
    expect(nextPageUrl(productsPage(3, 3), URL1, 'a.next')).toBeNull();
  });
});

describe('fieldsSchema', () => {
  it('accepts field maps and rejects unknown keys, empty maps and odd names', () => {
    expect(fieldsSchema.safeParse({ title: { selector: 'h1' } }).success).toBe(true);
    expect(fieldsSchema.safeParse({}).success).toBe(false);
    expect(fieldsSchema.safeParse({ t: { selector: 'h1', xpath: '//h1' } }).success).toBe(false);
    expect(fieldsSchema.safeParse({ 'bad name': { selector: 'h1' } }).success).toBe(false);
  });
});
