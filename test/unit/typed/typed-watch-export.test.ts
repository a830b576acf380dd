import { describe, expect, it } from 'vitest';
import { comparableTyped } from '../../../functions/core/typed/comparable.js';
import { fieldDiff } from '../../../functions/core/changes/field-diff.js';
import { watchedChanged } from '../../../functions/core/changes/watch.js';
import { structuredOf } from '../../../functions/core/changes/structured-data.js';
import { csvColumns } from '../../../functions/core/runs/run-export.js';
import { typedCell } from '../../../functions/core/typed/csv-columns.js';
import { changeOptionsSchema } from '../../../functions/core/changes/change-options.js';
import { scrapeRequestSchema } from '../../../functions/core/runs/run-task.js';

const prov = { price: { source: 'json-ld', path: 'ld[0].offers.price', confidence: 0.95 } };

describe('typed values in change tracking', () => {
  it('compares typed objects without provenance or warnings, by JSON pointer', () => {
    const a = structuredOf({ product: { name: 'Kettle', price: '24.50', availability: 'OutOfStock', provenance: prov, warnings: [] } });
    const b = structuredOf({ product: { name: 'Kettle', price: '19.99', availability: 'InStock', provenance: { ...prov, price: { ...prov.price, confidence: 0.9 } }, warnings: ['x'] } });
    expect(fieldDiff(a, b)).toEqual({ '/product/price': { previous: '24.50', current: '19.99' }, '/product/availability': { previous: 'OutOfStock', current: 'InStock' } });
  });

  it('compares listed products by URL: an added and a removed product are field changes', () => {
    const list = (urls: string[]) => comparableTyped({ product_list: { products: urls.map((url) => ({ url, price: '1.00' })), provenance: {}, warnings: [] } });
    const diff = fieldDiff(list(['https://s.example/a', 'https://s.example/b']), list(['https://s.example/b', 'https://s.example/c']));
    expect(diff).toEqual({
      '/product_list/products/https:~1~1s.example~1a/url': { previous: 'https://s.example/a', current: null },
      '/product_list/products/https:~1~1s.example~1a/price': { previous: '1.00', current: null },
      '/product_list/products/https:~1~1s.example~1c/url': { previous: null, current: 'https://s.example/c' },
      '/product_list/products/https:~1~1s.example~1c/price': { previous: null, current: '1.00' },
    });
    expect(watchedChanged(diff, ['/product_list/products'])).toBe(true);
  });

  it('a watch list makes only watched values count', () => {
    const fields = { '/product/description': { previous: 'a', current: 'b' } };
    expect(watchedChanged(fields, ['/product/price'])).toBe(false);
    expect(watchedChanged({ ...fields, '/product/price': { previous: '2.00', current: '1.00' } }, ['/product/price'])).toBe(true);
    expect(watchedChanged(null, ['/product/price'])).toBe(false);
    expect(watchedChanged(fields, undefined)).toBe(true);
  });

  it('validates watch pointers and typed_options (400 material)', () => {
    expect(changeOptionsSchema.safeParse({ watch: ['/product/price'] }).success).toBe(true);
    expect(changeOptionsSchema.safeParse({ watch: ['product/price'] }).success).toBe(false);
    expect(changeOptionsSchema.safeParse({ watch: Array.from({ length: 21 }, (_, i) => `/a/${i}`) }).success).toBe(false);
    expect(scrapeRequestSchema.safeParse({ url: 'https://a.example/', formats: ['product'], typed_options: { model: true } }).success).toBe(true);
    const noFormat = scrapeRequestSchema.safeParse({ url: 'https://a.example/', formats: ['markdown'], typed_options: { model: true } });
    expect(noFormat.error?.issues[0]).toMatchObject({ path: ['formats'], message: expect.stringContaining('typed_options is given') });
    expect(scrapeRequestSchema.safeParse({ url: 'https://a.example/', formats: ['product'], typed_options: { model: 'yes' } }).success).toBe(false);
  });
});

describe('typed objects in the CSV export', () => {
  it('become named columns, with nested values flat', () => {
    const item = { url: 'u', fetched_at: 't', status_code: 200, data: { title: 'T', product: { name: 'Kettle', price: '24.50', brand: { name: 'Acme' }, breadcrumbs: [{ name: 'Home' }, { name: 'Kitchen' }], provenance: { price: { source: 'json-ld' } }, warnings: ['w1'] } } };
    const cols = csvColumns([item]);
    expect(cols.slice(0, 8)).toEqual(['url', 'fetched_at', 'status_code', 'title', 'product.name', 'product.price', 'product.regular_price', 'product.currency']);
    expect(typedCell(item.data, 'product.brand')).toEqual({ value: 'Acme' });
    expect(typedCell(item.data, 'product.breadcrumbs')).toEqual({ value: 'Home > Kitchen' });
    expect(typedCell(item.data, 'product.sources')).toEqual({ value: 'price=json-ld' });
    expect(typedCell(item.data, 'product.warnings')).toEqual({ value: 'w1' });
    expect(typedCell({ product: null }, 'product.price')).toEqual({ value: undefined });
  });
});
