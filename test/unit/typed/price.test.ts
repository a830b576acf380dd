import { describe, expect, it } from 'vitest';
import { isPriceRange, normalizeAmount, pricesIn, structuredAmount } from '../../../functions/core/typed/price.js';
import { currencyCode } from '../../../functions/core/typed/currency.js';
import { phraseAvailability, structuredAvailability } from '../../../functions/core/typed/availability.js';
import { parseSalary } from '../../../functions/core/typed/salary.js';

describe('prices as shops print them', () => {
  it('normalises separators to a decimal string', () => {
    expect(normalizeAmount('1,299.00')).toBe('1299.00');
    expect(normalizeAmount('1.299,00')).toBe('1299.00');
    expect(normalizeAmount('1 299,5')).toBe('1299.50');
    expect(normalizeAmount("1'299.00")).toBe('1299.00');
    expect(normalizeAmount('12,-')).toBe('12.00');
    expect(normalizeAmount('1,299')).toBe('1299.00');
    expect(normalizeAmount('1.250', 'KWD')).toBe('1.250');
    expect(normalizeAmount('1.2.3,4.5')).toBeUndefined();
  });

  it('finds prices with the currency before or after, and its ISO code', () => {
    expect(pricesIn('Price: £26.08')).toEqual([{ amount: '26.08', currency_raw: '£', currency: 'GBP' }]);
    expect(pricesIn('49,90 €')).toEqual([{ amount: '49.90', currency_raw: '€', currency: 'EUR' }]);
    expect(pricesIn('CHF 12.50')).toEqual([{ amount: '12.50', currency_raw: 'CHF', currency: 'CHF' }]);
    expect(pricesIn('129 zł')[0]).toMatchObject({ amount: '129.00', currency: 'PLN' });
    expect(pricesIn('Model 2000 with 4 cups')).toEqual([]);
  });

  it('resolves shared symbols by the page language only', () => {
    expect(currencyCode('$', 'en-US')).toBe('USD');
    expect(currencyCode('$', 'es-MX')).toBe('MXN');
    expect(currencyCode('$', 'en-GB')).toBeUndefined();
    expect(currencyCode('kr', 'sv')).toBe('SEK');
    expect(currencyCode('¥', 'zh-CN')).toBe('CNY');
    expect(currencyCode('usd')).toBe('USD');
  });

  it('tells ranges and refuses zero or non-prices in structured data', () => {
    expect(isPriceRange('€10 – €20')).toBe(true);
    expect(isPriceRange('10–20 €')).toBe(true);
    expect(isPriceRange('€10')).toBe(false);
    expect(structuredAmount(0)).toBeUndefined();
    expect(structuredAmount('free')).toBeUndefined();
    expect(structuredAmount('$1,299.99')).toBe('1299.99');
  });

  it('maps availability values and words', () => {
    expect(structuredAvailability('http://schema.org/InStock')).toBe('InStock');
    expect(structuredAvailability('SoldOut')).toBe('OutOfStock');
    expect(structuredAvailability('in_stock')).toBe('InStock');
    expect(phraseAvailability('Nicht auf Lager')).toBe('OutOfStock');
    expect(phraseAvailability('Sofort lieferbar')).toBe('InStock');
    expect(phraseAvailability('No disponible')).toBe('OutOfStock');
    expect(phraseAvailability('Only 3 left in stock')).toBe('LimitedAvailability');
    expect(phraseAvailability('A very long description that mentions being in stock somewhere in the middle of a sentence about kettles')).toBeUndefined();
  });

  it('parses salaries as written', () => {
    expect(parseSalary('$59K-$99K', 'en')).toEqual({ raw: '$59K-$99K', currency: 'USD', value_min: '59000.00', value_max: '99000.00' });
    expect(parseSalary('£14.50 an hour', 'en-GB')).toMatchObject({ currency: 'GBP', value_min: '14.50', rate_type: 'hourly' });
  });
});
