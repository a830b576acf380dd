import type { CheerioAPI } from 'cheerio';
import type { Element } from 'domhandler';
import { cssPath, inOtherRegion, textOf } from './dom-helpers.js';
import type { Candidate, ProductFields, Reading } from './types.js';

const SKU = /^(sku|art(?:ikel)?[.\s-]*(?:nr|no|nummer)\.?|artikelnummer|item\s*(?:#|no\.?|number|code)|product\s*(?:code|#|no\.?|number)|stock\s*code|réf(?:érence)?\.?(?:\s*produit)?|referencia|ref\.?|código(?: de producto)?|cod(?:ice)?\.?(?: articolo| prodotto)?|productcode|artikelcode|varenummer|varenr\.?|artikelnr\.?|numer katalogowy|kod produktu|katalogové číslo|商品番号|商品コード|商品编号|货号|상품번호)$/iu;
const MPN = /^(mpn|model(?:\s*(?:no\.?|number|#|code))?|modell(?:nummer)?|modèle|réf(?:érence)? fabricant|modelo|modello|part\s*(?:no\.?|number|#)|manufacturer part (?:no\.?|number)|mfr\.? part (?:no\.?|#|number)|herstellernummer|hersteller-?artikelnummer|型番|型号)$/iu;
const GTIN = /^(gtin(?:-?1[234]|-?8)?|ean(?:-?13|-?code)?|upc|isbn(?:-?1[03])?|jan(?:\s*code)?|barcode|código de barras|codice a barre|streepjescode)$/iu;
const GTIN_TYPE = (label: string) => (/isbn/i.test(label) ? 'isbn' : /upc/i.test(label) ? 'upc' : /ean|jan/i.test(label) ? 'ean13' : 'gtin');

/** A value that can be an identifier: one token of letters, digits and - _ . / (no prose). */
const ID_VALUE = /^[A-Za-z0-9][A-Za-z0-9._/-]{1,39}$/;

/** Label/value pairs of specification tables, definition lists and "Label: value" lines. */
export function specPairs($: CheerioAPI, root: Element | undefined, max = 300): { label: string; value: string; el: Element }[] {
  const out: { label: string; value: string; el: Element }[] = [];
  const scope = root ? $(root) : $('body');
  const add = (label: string, value: string, el: Element) => {
    const l = label.replace(/[:：#]\s*$/, '').trim();
    if (l && value && l.length <= 40 && value.length <= 300 && out.length < max) out.push({ label: l, value, el });
  };
  scope.find('tr').each((_, tr) => {
    const cells = $(tr).children('th, td').toArray() as Element[];
    if (cells.length === 2) add(textOf(cells[0], 60), textOf(cells[1], 300), cells[1]);
  });
  scope.find('dt').each((_, dt) => {
    const dd = $(dt).nextAll('dd').first()[0] as Element | undefined;
    if (dd) add(textOf(dt as Element, 60), textOf(dd, 300), dd);
  });
  scope.find('li, p, span, div').each((_, n) => {
    const el = n as Element;
    if (el.children.some((c) => c.type === 'tag' && /^(div|p|li|ul|table)$/.test((c as Element).name))) return;
    const t = textOf(el, 120);
    const m = /^([^:：]{2,40})[:：]\s*(\S.{0,80})$/.exec(t);
    if (m) add(m[1], m[2].trim(), el);
  });
  return out;
}

/**
 * SKU, MPN, GTIN and the other specification rows as product fields. Looked for in the buy box
 * first, then the whole page outside other products' sections. Two different values under the
 * same kind of label are left out with a warning.
 */
export function readSpecs($: CheerioAPI, box: Element | undefined): Reading<ProductFields> {
  const r: Reading<ProductFields> = { fields: {}, warnings: [] };
  const pairs = [...specPairs($, box), ...specPairs($, undefined)].filter((p) => !inOtherRegion(p.el));
  const c = <T>(value: T, el: Element, confidence: number): Candidate<T> => ({ value, source: 'document', path: cssPath($, el), confidence });
  const pick = (re: RegExp, kind: string) => {
    const hits = pairs.filter((p) => re.test(p.label) && ID_VALUE.test(p.value.replace(/\s+/g, '')));
    const distinct = new Set(hits.map((h) => h.value.replace(/\s+/g, '')));
    if (distinct.size > 1) r.warnings.push(`${kind} left out: the page shows ${distinct.size} values (${[...distinct].slice(0, 3).join(', ')})`);
    return distinct.size === 1 ? hits[0] : undefined;
  };
  const sku = pick(SKU, 'sku');
  if (sku) r.fields.sku = c(sku.value.replace(/\s+/g, ''), sku.el, 0.75);
  const mpn = pick(MPN, 'mpn');
  if (mpn) r.fields.mpn = c(mpn.value.replace(/\s+/g, ''), mpn.el, 0.7);
  const gtins = pairs.filter((p) => GTIN.test(p.label));
  const valid = gtins.filter((g) => /^\d{8,14}$/.test(g.value.replace(/[\s-]/g, '')) || (/isbn/i.test(g.label) && /^[\dX-]{10,17}$/i.test(g.value)));
  const distinct = new Map(valid.map((g) => [g.value.replace(/[\s-]/g, ''), g]));
  if (distinct.size) r.fields.gtin = c([...distinct.values()].map((g) => ({ type: GTIN_TYPE(g.label), value: g.value.replace(/[\s-]/g, '') })), [...distinct.values()][0].el, 0.75);
  // A value under a UPC/EAN label that is no GTIN is the shop's own item code: its SKU when no SKU is labelled.
  if (!sku) {
    const own = new Set(gtins.filter((g) => !valid.includes(g) && ID_VALUE.test(g.value)).map((g) => g.value));
    if (own.size === 1) {
      const g = gtins.find((x) => own.has(x.value))!;
      r.fields.sku = c(g.value, g.el, 0.6);
    }
  }
  const props = new Map<string, { name: string; value: string; el: Element }>();
  for (const p of pairs) if (p.el.name === 'dd' || p.el.name === 'td' || p.el.name === 'th') if (!props.has(p.label)) props.set(p.label, { name: p.label, value: p.value, el: p.el });
  if (props.size) r.fields.additional_properties = c([...props.values()].slice(0, 100).map(({ name, value }) => ({ name, value })), [...props.values()][0].el, 0.7);
  return r;
}
