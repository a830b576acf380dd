import type { CheerioAPI } from 'cheerio';

/**
 * Consent banners, cookie walls and sign-up modals: what they say and where consent platforms put
 * them. One vocabulary for both engines: the browser's overlay script (engine/overlay-script.ts)
 * weighs it with layout signals (fixed or sticky position over the viewport or docked at an edge,
 * z-index, body scroll-lock); the http engine, which has no layout, removes only containers that
 * say they are about consent (platform roots, or consent words in their id/class) and read like
 * consent text. Nothing is ever clicked: the overlay is left out, never accepted.
 */

/**
 * Consent vocabulary by meaning, many languages (en, de, fr, es, it, nl, pt, pl, sv, da, no, fi,
 * cs, ja, zh, ko). A text reads like a consent notice when it matches at least two groups
 * ({@link consentScore}). Sources of case-insensitive, Unicode regexes.
 */
export const CONSENT_GROUPS: Record<string, string> = {
  // Cookies and trackers.
  cookies: String.raw`cookie|kakor|ciasteczk|evästee|cookies|クッキー|쿠키|トラッキング|tracking technolog|tracker`,
  // Consent, accept, agree.
  consent: String.raw`consent|accept|agree|einwillig|zustimm|akzeptier|einverstanden|consentement|accepter|j'accepte|consentimiento|aceptar|acepto|consenso|accett|toestemming|accepteren|akkoord|consentimento|aceitar|concordo|zgod|akceptuj|samtycke|godkänn|acceptera|samtykke|accepter|hyväksy|suostu|souhlas|přijmout|同意|承諾|동의`,
  // Refuse, manage, settings.
  choice: String.raw`reject|decline|refuse|manage (?:your )?(?:preferences|options|choices|settings)|cookie settings|preferences|ablehnen|einstellungen|refuser|paramètres|personnaliser|rechazar|configurar|rifiut|impostazioni|weigeren|instellingen|rejeitar|definições|odrzuć|ustawienia|avvisa|neka|inställningar|afvis|indstillinger|hylkää|odmítnout|nastavení|拒否|設定|拒绝|거부`,
  // Privacy, personal data, partners, ads.
  privacy: String.raw`privacy|personal data|gdpr|dsgvo|partners|personali[sz]ed (?:ads|content)|datenschutz|vie privée|données personnelles|confidentialité|privacidad|datos personales|riservatezza|dati personali|privacybeleid|persoonsgegevens|privacidade|dados pessoais|prywatnoś|dane osobowe|integritet|personuppgifter|privatliv|tietosuoja|osobní údaje|プライバシー|個人情報|隐私|개인정보`,
};

/** Sign-up and paywall modals (newsletter, account, subscription), many languages. */
export const SIGNUP_WORDS = String.raw`subscribe|newsletter|sign up|create (?:an |your )?account|register|log ?in to continue|join (?:now|for free)|abonnier|anmelden|registrier|s'abonner|s'inscrire|inscrivez|suscríb|regístrate|iscriviti|abbonati|registrati|inschrijven|abonneer|assine|inscreva|cadastre|zapisz się|subskryb|prenumerera|registrera|tilmeld|tilaa|přihlásit|登録|購読|订阅|注册|구독`;

/**
 * Roots that consent platforms insert (OneTrust, Cookiebot, Didomi, Quantcast Choice, TrustArc,
 * Usercentrics, Sourcepoint, Google Funding Choices, consentmanager, Osano, Iubenda, Complianz,
 * CookieYes, Klaro, Termly, Axeptio, Borlabs, Cookie Notice). One signal among others: the
 * browser still requires the element to read like consent or sit over the page.
 */
export const CONSENT_PLATFORM_SELECTORS = [
  '#onetrust-consent-sdk', '#onetrust-banner-sdk', '#CybotCookiebotDialog', '#CybotCookiebotDialogBodyUnderlay', '#didomi-host',
  '#didomi-popup', '.qc-cmp2-container', '#qc-cmp2-container', '#truste-consent-track', '#truste-consent-content', '.truste_overlay',
  '#consent_blackbar', '#usercentrics-root', '#usercentrics-cmp-ui', '[id^="sp_message_container"]', '.fc-consent-root',
  '#cmpbox', '#cmpbox2', '.osano-cm-window', '#iubenda-cs-banner', '#cmplz-cookiebanner-container', '.cmplz-cookiebanner',
  '#cookie-law-info-bar', '.cky-consent-container', '#klaro', '.klaro', '#termly-code-snippet-support', '#axeptio_overlay',
  '#BorlabsCookieBox', '#cookie-notice', '#gdpr-cookie-message', '#ccc', '.cc-window', '.cc-banner',
];

/** id/class tokens that name a consent container (the http engine's structural signal). */
export const CONSENT_NAME = String.raw`cookie|consent|gdpr|cmp(?:[-_]|box|wrapper|container)|privacy[-_]?(?:banner|notice|popup|modal)`;

const groups = Object.values(CONSENT_GROUPS).map((src) => new RegExp(src, 'iu'));
const signup = new RegExp(SIGNUP_WORDS, 'iu');
const consentName = new RegExp(CONSENT_NAME, 'i');

/** How many consent groups a text matches (0-4); two or more reads as a consent notice. */
export function consentScore(text: string): number {
  let n = 0;
  for (const g of groups) if (g.test(text)) n++;
  return n;
}

/** Does a text read like a sign-up or subscription prompt? */
export const readsLikeSignup = (text: string): boolean => signup.test(text);

/** Longest text a consent container has; longer, it holds the page and is never removed. */
const MAX_OVERLAY_TEXT = 3_000;

/**
 * The http engine's overlay removal (no layout to look at): removes consent platforms' roots and
 * containers whose id or class names consent (`cookie-banner`, `gdpr-notice`, `cmp-container`…),
 * when their text reads like a consent notice (two vocabulary groups) and is short. Elements that
 * hold the page (`body`, `main`, `article`, or containing one, or over 3,000 characters of text) are never removed.
 * Mutates `$`; returns how many elements it removed.
 */
export function removeStaticOverlays($: CheerioAPI): number {
  let removed = 0;
  const candidates = new Set<unknown>();
  for (const sel of CONSENT_PLATFORM_SELECTORS) $(sel).each((_, el) => void candidates.add(el));
  $('[id], [class]').each((_, el) => {
    const name = `${$(el).attr('id') ?? ''} ${$(el).attr('class') ?? ''}`;
    if (consentName.test(name)) candidates.add(el);
  });
  for (const el of candidates) {
    const node = $(el as never);
    if (!node.parent().length) continue; // inside an element removed already
    const tag = (el as { tagName?: string }).tagName?.toLowerCase();
    if (tag === 'body' || tag === 'html' || tag === 'main' || tag === 'article' || tag === 'head') continue;
    if (node.find('main, article, [role="main"]').length) continue;
    const text = node.text().replace(/\s+/g, ' ').trim();
    if (text.length > MAX_OVERLAY_TEXT) continue;
    if (consentScore(text) < 2) continue;
    node.remove();
    removed++;
  }
  return removed;
}
