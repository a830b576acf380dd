import type { Element } from 'domhandler';
import { currencyCode } from './currency.js';
import { isPriceRange, normalizeAmount, pricesIn, type ParsedPrice } from './price.js';
import { classId, elementsIn, inOtherRegion, inSpecTable, isStruck, isTag, textOf } from './dom-helpers.js';

/** A price shown in the document, and what surrounds it. */
export interface PriceElement {
  el: Element;
  price: ParsedPrice;
  text: string;
  struck: boolean;
  /** In a table or definition list (a specification). */
  spec: boolean;
  /** A "from", a range or an installment: not one current price. */
  range: boolean;
  /** The element or its parent is named as a price (class, id, itemprop, data attribute). */
  named: boolean;
}

/** Amounts that are not the product's price: tax, shipping, savings, instalments, unit prices. */
const NOT_THE_PRICE = /\b(tax|vat|mwst|ust|shipping|delivery|versand|versandkosten|zzgl|frais de port|gastos de envío|livraison|envío|spedizione|verzending|frete|frakt|save|you save|sparen|sie sparen|économisez|ahorra|risparmi|bespaar|per month|monthly|\/\s?mo\b|a month|installments?|payments? of|instal+ments|raten|mensualit|cuotas|rate da|per (?:kg|g|l|m|100)|\/\s?(?:kg|g|l|ml|m|100\s?g|100\s?ml|st|stk|pc|pcs|unit)\b|je (?:kg|l|100)|prix au (?:kg|litre)|precio por|gift card|coupon|%\s?off|rabatt|remise|descuento|sconto|korting|free shipping over|orders? over|ab \d|über \d|dès \d)(?![\p{L}])/iu;
/** Words that make a price a lower bound or a former price. */
const FROM = /^(from|ab|dès|à partir de|desde|da|vanaf|a partir de|fra|från|od|от|起)\b/i;
const WAS = /^(was|statt|uvp|rrp|msrp|avant|antes|prima|voorheen|før|förr|tidigare|было|regular price|list price|original price|prix conseillé|precio anterior)\b/i;

/** A price labelled in its own text ("Price: £26.08", "Preis: 12,99 €"). */
const PRICE_LABEL = /^(price|our price|sale price|now|preis|unser preis|prix|precio|prezzo|prijs|preço|pris|cena|fiyat|価格|価格\(税込\)|价格|售价|가격)\s*[:：]?/iu;

const NAMED = /(^|[\s_-])(price|prices|preis|prix|precio|prezzo|prijs|preço|pris|cena|fiyat|amount|cost)(\w*)?([\s_-]|$)/;

const named = (el: Element): boolean => {
  for (let n: Element | null = el, i = 0; n && isTag(n) && i < 3; n = n.parent as Element | null, i++) {
    if (NAMED.test(classId(n)) || /price/i.test(n.attribs.itemprop ?? '') || Object.keys(n.attribs).some((k) => k.startsWith('data-') && /price/i.test(k))) return true;
  }
  return false;
};

/**
 * Prices shown below `root`, each the smallest element holding one whole price, with what marks
 * them (struck out, in a specification, a range, labelled as something else). Prices inside
 * navigation, footers and sections about other products are not collected at all.
 */
export function priceElements(root: Element, lang: string | undefined, stopAt?: Element, max = 200): PriceElement[] {
  const out: PriceElement[] = [];
  const els = elementsIn(root, 4_000);
  for (const el of els) {
    if (out.length >= max) break;
    if (el.name === 'script' || el.name === 'style' || el.name === 'option') continue;
    const text = textOf(el, 200);
    if (!text || text.length > 80) continue;
    let prices = pricesIn(text, lang);
    // A bare number in an element named as a price (`<span class="price">26.08</span>`, currency elsewhere).
    if (!prices.length && /^\d[\d.,\s]*$/.test(text) && named(el) && el.children.every((c) => !isTag(c))) {
      const amount = normalizeAmount(text);
      if (amount) prices = [{ amount }];
    }
    if (!prices.length) continue;
    // The smallest element holding the whole price: a child that has the same price takes its place.
    const childHolds = el.children.some((c) => isTag(c) && (() => {
      const t = textOf(c, 200);
      return t.length <= 80 && pricesIn(t, lang).some((p) => p.amount === prices[0].amount);
    })());
    if (childHolds) continue;
    if (inOtherRegion(el, stopAt)) continue;
    const label = text.replace(/[\d.,\s\u00a0]+/g, ' ');
    // Its own words say what else it is (shipping, tax, a saving…): never the price. Its parent's
    // words count only when nothing names the element as a price.
    if (NOT_THE_PRICE.test(label)) continue;
    const parentText = el.parent && isTag(el.parent) ? textOf(el.parent, 200) : '';
    const labelled = named(el) || PRICE_LABEL.test(text);
    if (!labelled && parentText.length <= 100 && NOT_THE_PRICE.test(parentText.replace(/[\d.,]+/g, ' '))) continue;
    const range = prices.length > 1 && new Set(prices.map((p) => p.amount)).size > 1 ? isPriceRange(text) : false;
    const struck = isStruck(el, stopAt) || WAS.test(text);
    out.push({
      el,
      price: prices[prices.length > 1 && !range && struck === false ? 0 : 0],
      text,
      struck,
      spec: inSpecTable(el, stopAt),
      range: range || FROM.test(text),
      named: labelled,
    });
    // "€119 €99": a struck and a current price in one element (the struck one inside <del>) are found as their own elements.
  }
  return out;
}

/** The currency of a price, or the page's one currency when the element shows a bare number. */
export const currencyOf = (p: ParsedPrice, lang?: string): string | undefined => p.currency ?? (p.currency_raw ? currencyCode(p.currency_raw, lang) : undefined);
