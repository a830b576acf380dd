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

/** Shortest text of a consent notice, unless it is a sentence (shorter: a link or a button, left alone). */
const MIN_NOTICE_TEXT = 40;

/** Longest text a consent container has; longer, it holds the page and is never removed. */
const MAX_OVERLAY_TEXT = 3_000;

// The platform roots as plain id / class / id-prefix sets, for the http engine's single walk (one
// selector query per platform over every page cost more than parsing the page).
const PLATFORM_IDS = new Set<string>();
const PLATFORM_CLASSES = new Set<string>();
const PLATFORM_ID_PREFIXES: string[] = [];
for (const sel of CONSENT_PLATFORM_SELECTORS) {
  const prefix = /^\[id\^="([^"]+)"\]$/.exec(sel);
  if (prefix) PLATFORM_ID_PREFIXES.push(prefix[1]!);
  else if (sel.startsWith('#')) PLATFORM_IDS.add(sel.slice(1));
  else if (sel.startsWith('.')) PLATFORM_CLASSES.add(sel.slice(1));
}

/** A DOM node as cheerio's parser (domhandler) builds it; only what the walk reads. */
interface Node {
  type: string;
  name?: string;
  data?: string;
  attribs?: Record<string, string>;
  children?: Node[];
}

const PAGE_TAGS = new Set(['html', 'head', 'body', 'main', 'article']);

function isCandidate(el: Node): boolean {
  const id = el.attribs?.id ?? '';
  const cls = el.attribs?.class ?? '';
  if (!id && !cls) return false;
  if (id && (PLATFORM_IDS.has(id) || PLATFORM_ID_PREFIXES.some((p) => id.startsWith(p)))) return true;
  if (cls && cls.split(/\s+/).some((c) => PLATFORM_CLASSES.has(c))) return true;
  return consentName.test(`${id} ${cls}`);
}

/** The element's text, or null once it is longer than `max` or holds a main/article/role=main. */
function shortText(el: Node, max: number): string | null {
  let out = '';
  const visit = (n: Node): boolean => {
    if (n.type === 'text') {
      out += n.data ?? '';
      return out.length <= max * 2; // whitespace is collapsed afterwards
    }
    if (n.type !== 'tag') return true;
    if (n.name === 'main' || n.name === 'article' || n.attribs?.role === 'main') return false;
    if (n.name === 'script' || n.name === 'style') return true;
    for (const c of n.children ?? []) if (!visit(c)) return false;
    return true;
  };
  for (const c of el.children ?? []) if (!visit(c)) return null;
  const text = out.replace(/\s+/g, ' ').trim();
  return text.length > max ? null : text;
}

/**
 * The http engine's overlay removal (no layout to look at): removes consent platforms' roots and
 * containers whose id or class names consent (`cookie-banner`, `gdpr-notice`, `cmp-container`…),
 * when their text reads like a consent notice (two vocabulary groups) and is short. Elements that
 * hold the page (`body`, `main`, `article`, or containing one, or over 3,000 characters of text)
 * are never removed. One walk of the tree; mutates `$`; returns how many elements it removed.
 */
export function removeStaticOverlays($: CheerioAPI): number {
  const doomed: Node[] = [];
  const walk = (n: Node) => {
    if (n.type === 'tag' || n.type === 'script' || n.type === 'style') {
      if (n.type === 'tag' && !PAGE_TAGS.has(n.name ?? '') && isCandidate(n)) {
        const text = shortText(n, MAX_OVERLAY_TEXT);
        // A notice is a sentence or more: a short link ("Privacy preferences") stays where it is.
        if (text !== null && (text.length >= MIN_NOTICE_TEXT || /[.!?。！？]/.test(text)) && consentScore(text) >= 2) {
          doomed.push(n);
          return; // its descendants go with it
        }
      }
    }
    for (const c of n.children ?? []) walk(c);
  };
  for (const r of $.root().toArray() as unknown as Node[]) walk(r);
  for (const n of doomed) $(n as never).remove();
  return doomed.length;
}
