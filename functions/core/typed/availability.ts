import type { Availability } from './types.js';

/**
 * Availability as schema.org names it, from a structured value (`https://schema.org/InStock`,
 * `in_stock`, `SoldOut`) or from what a shop writes next to its buy button, in many languages.
 */

const STRUCTURED: Record<string, Availability> = {
  instock: 'InStock', onlineonly: 'InStock', instoreonly: 'InStock', available: 'InStock', in_stock: 'InStock',
  outofstock: 'OutOfStock', soldout: 'OutOfStock', out_of_stock: 'OutOfStock', unavailable: 'OutOfStock',
  preorder: 'PreOrder', presale: 'PreOrder', pre_order: 'PreOrder',
  backorder: 'BackOrder', back_order: 'BackOrder',
  limitedavailability: 'LimitedAvailability', discontinued: 'Discontinued',
};

/** A structured availability value (URL, enum name, or a state's own spelling), or undefined. */
export function structuredAvailability(value: unknown): Availability | undefined {
  if (typeof value === 'boolean') return value ? 'InStock' : 'OutOfStock';
  if (typeof value !== 'string') return undefined;
  const last = value.trim().split(/[/#:]/).pop() ?? '';
  const key = last.toLowerCase().replace(/[\s-]/g, '');
  return STRUCTURED[key] ?? STRUCTURED[last.toLowerCase().replace(/[\s-]/g, '_')];
}

/** Words that say a product can be bought now / cannot / later. Matched on short texts only. */
const PHRASES: [Availability, RegExp][] = [
  ['OutOfStock', /\b(out of stock|sold out|currently unavailable|no longer available|not available|temporarily unavailable|notify me when (?:it'?s )?available)\b|nicht (?:vorrätig|verfügbar|lieferbar|auf lager)|ausverkauft|derzeit nicht|rupture de stock|en rupture|épuisé|indisponible|agotado|sin (?:stock|existencias)|no disponible|esaurito|non disponibile|uitverkocht|niet (?:op voorraad|leverbaar|beschikbaar)|esgotado|indisponível|sem estoque|slutsåld|slut i lager|ikke på lager|utsolgt|udsolgt|wyprzedany|niedostępny|brak w magazynie|vyprodáno|není skladem|tükendi|стоку нет|нет в наличии|在庫切れ|在庫なし|売り切れ|缺货|售罄|无货|품절|일시품절/iu],
  ['PreOrder', /\b(pre-?order|preorder now|available for pre-?order)\b|vorbestell|précommande|pré-commande|preventa|reservar ahora|preordina|voorbestellen|pré-venda|förbeställ|przedsprzedaż|予約受付|预售|예약/iu],
  ['BackOrder', /\b(back-?order(?:ed)?|on backorder)\b|nachbestellt|en réapprovisionnement/iu],
  ['LimitedAvailability', /\b(only \d+ left|limited stock|few left|low stock)\b|nur noch \d+|plus que \d+|últimas? \d+ unidad/iu],
  ['Discontinued', /\b(discontinued)\b|nicht mehr erhältlich|abgekündigt|plus fabriqué|descatalogado/iu],
  ['InStock', /\b(in stock|available now|ready to ship|ships today|in stock online)\b|auf lager|sofort lieferbar|lieferbar|vorrätig|en stock|disponible|en existencia|disponibile|in magazzino|op voorraad|leverbaar|em estoque|disponível|i lager|på lager|na stanie|dostępny|skladem|stokta|в наличии|在庫あり|在庫有|有货|现货|재고 있음|구매 가능/iu],
];

/** Buy buttons: the page sells the product now. */
export const ADD_TO_CART = /\b(add to (?:cart|basket|bag|trolley)|buy now|buy it now|add to shopping (?:cart|bag))\b|in den warenkorb|jetzt kaufen|ajouter au panier|acheter|añadir al carrito|agregar al carrito|comprar|aggiungi al carrello|acquista|in winkelwagen|toevoegen aan winkelwagen|adicionar ao carrinho|lägg i varukorgen|köp|legg i handlekurven|læg i kurv|dodaj do koszyka|do košíku|sepete ekle|в корзину|カートに入れる|购物车|加入购物车|장바구니/iu;

/** The availability a short text states, or undefined. Longer texts are prose, not a state. */
export function phraseAvailability(text: string): Availability | undefined {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t || t.length > 80) return undefined;
  for (const [state, re] of PHRASES) if (re.test(t)) return state;
  return undefined;
}

/** Is this short text a buy button's label? */
export const isBuyLabel = (text: string): boolean => {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 0 && t.length <= 40 && ADD_TO_CART.test(t);
};
