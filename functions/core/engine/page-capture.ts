import type { CheerioAPI } from 'cheerio';
import { loadHtml } from '../content/load-html.js';
import { CONSENT_GROUPS, CONSENT_PLATFORM_SELECTORS, SIGNUP_WORDS } from '../content/overlays.js';
import { isAllowlisted, type TargetPolicy } from '../governance/target-policy.js';
import type { ComposedFrame } from '../../ports/browser.js';

/**
 * How the browser engine captures a page as people see it:
 *
 * 1. Overlays out ({@link OVERLAY_SCRIPT}): consent banners, cookie walls and sign-up modals, in
 *    the document and in open shadow roots, are removed from the live page (so from markdown, text
 *    and screenshots alike), and a scroll lock they set is lifted. Never by clicking "accept".
 * 2. The composed tree ({@link CAPTURE_SCRIPT}): each frame is serialised with the content of
 *    its open shadow roots in place of their hosts' light children (slots filled with what is
 *    assigned to them), and its iframes as placeholders the adapter numbered.
 * 3. Frames stitched ({@link stitchFrames}): a same-site iframe's document (or one whose host the
 *    tenant's target policy allowlists) replaces its placeholder; any other iframe is left out.
 */

/** The attribute {@link VIEW_SCRIPT} and {@link HIDE_OVERLAYS_SCRIPT} put on the overlays they find. */
export const OVERLAY_MARK = 'data-gleaner-overlay';

/**
 * In-page function source: removes overlays from the document and its open shadow roots; returns
 * how many it removed. Signals, weighed together rather than any one alone: fixed or sticky
 * position, covering a large part of the viewport or docked at its top or bottom edge, a high
 * z-index, a scroll lock on html/body, consent vocabulary in many languages (two meaning groups),
 * sign-up vocabulary in a modal, `role=dialog`/`aria-modal`, and known consent platforms' roots.
 * An element that holds the page (main/article inside, or over 3,000 characters, or most of the
 * page's text) is never removed. Kept as source text: a compiled function would carry bundler
 * helpers into the page.
 */
export const OVERLAY_SCRIPT = overlayScript('remove');

/**
 * The overlay finder in one of two modes: `remove` takes the overlays out of the live page (a
 * scrape's tab, used once) and lifts their scroll lock; `mark` only sets {@link OVERLAY_MARK} on
 * them, for a runbook whose later steps still work on the page as it is.
 */
function overlayScript(mode: 'remove' | 'mark'): string {
  const act = mode === 'remove' ? 'for (const el of removed) el.remove();' : `for (const el of removed) el.setAttribute('${OVERLAY_MARK}', '');`;
  return `(() => {
  const groups = ${JSON.stringify(Object.values(CONSENT_GROUPS))}.map((s) => new RegExp(s, 'iu'));
  const signup = new RegExp(${JSON.stringify(SIGNUP_WORDS)}, 'iu');
  const platform = ${JSON.stringify(CONSENT_PLATFORM_SELECTORS.join(','))};
  const frameName = /consent|cookie|cmp|gdpr|privacy|sp_message|trustarc|truste|didomi|onetrust|usercentrics/i;
  const vw = window.innerWidth || 1, vh = window.innerHeight || 1;
  const score = (t) => groups.reduce((n, g) => n + (g.test(t) ? 1 : 0), 0);
  const deepText = (node) => {
    let t = '';
    const visit = (n) => {
      if (t.length > 20000) return;
      if (n.nodeType === 3) { t += n.data + ' '; return; }
      if (n.nodeType !== 1 && n.nodeType !== 11) return;
      const tag = n.localName;
      if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') return;
      if (tag === 'iframe') { try { const d = n.contentDocument; if (d && d.body) visit(d.body); } catch (e) {} return; }
      if (n.shadowRoot) visit(n.shadowRoot);
      for (const c of n.childNodes) visit(c);
    };
    visit(node);
    return t.replace(/\\s+/g, ' ').trim();
  };
  const roots = [document];
  const collect = (root) => { for (const el of root.querySelectorAll('*')) if (el.shadowRoot) { roots.push(el.shadowRoot); collect(el.shadowRoot); } };
  collect(document);
  const html = document.documentElement, body = document.body;
  if (!body) return 0;
  const lockOf = (el) => { const cs = getComputedStyle(el); return cs.overflow === 'hidden' || cs.overflowY === 'hidden' || cs.position === 'fixed'; };
  const locked = lockOf(html) || lockOf(body);
  const pageText = deepText(body).length;
  const candidates = new Set();
  for (const root of roots) {
    for (const el of root.querySelectorAll(platform)) candidates.add(el);
    for (const el of root.querySelectorAll('*')) {
      if (el === html || el === body) continue;
      const cs = getComputedStyle(el);
      if (cs.position === 'fixed' || cs.position === 'sticky' || (cs.position === 'absolute' && (parseInt(cs.zIndex, 10) || 0) >= 100)
        || el.getAttribute('aria-modal') === 'true' || (el.localName === 'dialog' && el.open)) candidates.add(el);
    }
  }
  const removed = [];
  const inRemoved = (el) => removed.some((r) => r.contains(el));
  const judge = (el) => {
    if (!el.isConnected || inRemoved(el)) return false;
    const cs = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    const w = Math.max(0, Math.min(r.right, vw) - Math.max(r.left, 0)), h = Math.max(0, Math.min(r.bottom, vh) - Math.max(r.top, 0));
    const cover = (w * h) / (vw * vh);
    const fixed = cs.position === 'fixed' || cs.position === 'sticky';
    const docked = fixed && w >= vw * 0.6 && (r.top <= 2 || r.bottom >= vh - 2);
    const z = parseInt(cs.zIndex, 10) || 0;
    const dialog = el.getAttribute('role') === 'dialog' || el.getAttribute('role') === 'alertdialog' || el.getAttribute('aria-modal') === 'true' || el.localName === 'dialog';
    const isPlatform = el.matches(platform);
    if (el.querySelector('main, article, [role="main"]')) return false;
    let text = deepText(el);
    if (el.localName === 'iframe') text += ' ' + [el.id, el.name, el.title, el.src].join(' ');
    if (text.length > 3000 || (pageText > 1000 && text.length > pageText * 0.6)) return false;
    const consent = score(text) >= 2 || (el.localName === 'iframe' && frameName.test([el.id, el.name, el.title, el.src].join(' ')));
    const wants = signup.test(text) && text.length < 1500;
    if (isPlatform && (consent || fixed || cover > 0.2)) return true;
    if ((fixed || z >= 100 || dialog) && consent && (docked || cover >= 0.1 || z >= 100 || dialog || locked)) return true;
    if (fixed && wants && (cover >= 0.15 || dialog) && (z >= 10 || locked || dialog)) return true;
    return false;
  };
  for (const el of candidates) if (judge(el)) removed.push(el);
  // Backdrops: an empty layer over the whole viewport, left behind by a wall just removed.
  if (removed.length || locked) {
    for (const root of roots) for (const el of root.querySelectorAll('*')) {
      if (el === html || el === body || inRemoved(el)) continue;
      const cs = getComputedStyle(el);
      if (cs.position !== 'fixed') continue;
      const r = el.getBoundingClientRect();
      if (r.width < vw * 0.9 || r.height < vh * 0.9) continue;
      if (deepText(el).length > 20 || el.querySelector('img, video, canvas, svg, main, article')) continue;
      if ((parseInt(cs.zIndex, 10) || 0) < 1) continue;
      removed.push(el);
    }
  }
  ${act}
  if (removed.length && ${JSON.stringify(mode === 'remove')}) {
    for (const el of [html, body]) {
      if (lockOf(el)) { el.style.setProperty('overflow', 'visible', 'important'); if (getComputedStyle(el).position === 'fixed') el.style.setProperty('position', 'static', 'important'); }
      if (/blur/.test(getComputedStyle(el).filter)) el.style.setProperty('filter', 'none', 'important');
    }
    for (const el of body.children) if (/blur/.test(getComputedStyle(el).filter)) el.style.setProperty('filter', 'none', 'important');
  }
  return removed.length;
})()`;
}

/**
 * In-page function source: the document serialised as HTML with open shadow roots inlined (a
 * host's shadow content in place of its light children; a slot replaced by the nodes assigned to
 * it). iframes the adapter numbered (`data-gleaner-frame`) are kept as empty placeholders for
 * {@link stitchFrames}. Without shadow roots nor numbered frames it is the plain outerHTML.
 */
export const COMPOSE_SCRIPT = `(() => {
  const doctype = document.doctype ? '<!DOCTYPE ' + document.doctype.name + '>' : '';
  let shadows = false;
  for (const el of document.querySelectorAll('*')) if (el.shadowRoot) { shadows = true; break; }
  if (!shadows) return doctype + document.documentElement.outerHTML;
  const VOID = new Set(['area','base','br','col','embed','hr','img','input','link','meta','param','source','track','wbr']);
  const RAW = new Set(['script','style','noscript','xmp','iframe','noembed','noframes','plaintext']);
  const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\\u00a0/g, '&nbsp;');
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/\\u00a0/g, '&nbsp;');
  const kids = (n) => { let s = ''; for (const c of n.childNodes) s += ser(c, n); return s; };
  const ser = (n, parent) => {
    if (n.nodeType === 3) return parent && RAW.has(parent.localName) ? n.data : esc(n.data);
    if (n.nodeType === 8) return '<!--' + n.data + '-->';
    if (n.nodeType !== 1) return '';
    const tag = n.localName;
    if (tag === 'slot') {
      const assigned = n.assignedNodes({ flatten: true });
      return assigned.length ? assigned.map((c) => ser(c, c.parentNode)).join('') : kids(n);
    }
    let s = '<' + tag;
    for (const a of n.attributes) s += ' ' + a.name + '="' + attr(a.value) + '"';
    s += '>';
    if (VOID.has(tag)) return s;
    const inner = n.shadowRoot ? kids(n.shadowRoot) : tag === 'template' ? '' : tag === 'iframe' ? '' : kids(n);
    return s + inner + '</' + tag + '>';
  };
  return doctype + ser(document.documentElement, null);
})()`;

/** Overlays out, then the composed serialisation: what the adapter evaluates in every frame. */
export const CAPTURE_SCRIPT = `(() => { try { ${OVERLAY_SCRIPT}; } catch (e) {} return ${COMPOSE_SCRIPT}; })()`;

/** In-page source: every element under `document` and its open shadow roots that carries {@link OVERLAY_MARK}. */
const MARKED = `(() => {
  const out = [];
  const visit = (root) => { for (const el of root.querySelectorAll('*')) { if (el.hasAttribute('${OVERLAY_MARK}')) out.push(el); if (el.shadowRoot) visit(el.shadowRoot); } };
  visit(document);
  return out;
})()`;

/**
 * The composed serialisation with overlays marked, not removed: the marks are taken off the live
 * page in the same synchronous turn, so the page never sees them and a runbook's later steps
 * (a click on the banner included) find the page as it was. {@link dropMarkedOverlays} then
 * leaves them out of the HTML.
 */
export const VIEW_SCRIPT = `(() => {
  try { ${overlayScript('mark')}; } catch (e) {}
  try { return ${COMPOSE_SCRIPT}; } finally { for (const el of ${MARKED}) el.removeAttribute('${OVERLAY_MARK}'); }
})()`;

/**
 * In-page source: hide the overlays for a screenshot without removing them (the previous inline
 * visibility is kept in the mark); {@link SHOW_OVERLAYS_SCRIPT} puts them back.
 */
export const HIDE_OVERLAYS_SCRIPT = `(() => {
  try { ${overlayScript('mark')}; } catch (e) { return 0; }
  const els = ${MARKED};
  for (const el of els) {
    el.setAttribute('${OVERLAY_MARK}', el.style.getPropertyValue('visibility') + '|' + el.style.getPropertyPriority('visibility'));
    el.style.setProperty('visibility', 'hidden', 'important');
  }
  return els.length;
})()`;

/** In-page source: undo {@link HIDE_OVERLAYS_SCRIPT}. */
export const SHOW_OVERLAYS_SCRIPT = `(() => {
  for (const el of ${MARKED}) {
    const [value, priority] = (el.getAttribute('${OVERLAY_MARK}') || '|').split('|');
    if (value) el.style.setProperty('visibility', value, priority); else el.style.removeProperty('visibility');
    el.removeAttribute('${OVERLAY_MARK}');
  }
})()`;

/** Remove the elements {@link VIEW_SCRIPT} marked as overlays (from a loaded composed page). */
export function dropMarkedOverlays($: CheerioAPI): number {
  const marked = $(`[${OVERLAY_MARK}]`);
  marked.remove();
  return marked.length;
}

/** The registrable part of a host, approximately (no public suffix list): IPs and `localhost` as they are. */
function siteOf(host: string): string {
  const h = host.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(h) || h.includes(':') || !h.includes('.')) return h;
  const labels = h.split('.');
  // co.uk, com.au, org.br…: a short second-level label under a two-letter country code.
  const take = labels.length >= 3 && labels.at(-1)!.length === 2 && labels.at(-2)!.length <= 3 ? 3 : 2;
  return labels.slice(-take).join('.');
}

/** Same site (scheme and registrable domain; ports do not count), as browsers define it. */
export function sameSite(a: string, b: string): boolean {
  try {
    const x = new URL(a), y = new URL(b);
    return x.protocol === y.protocol && siteOf(x.hostname) === siteOf(y.hostname);
  } catch {
    return false;
  }
}

/**
 * The page's HTML with each frame's placeholder replaced by the body of that frame's document,
 * when the frame is same-site with the page or its host is in the tenant's allowlist; any other
 * frame is left out (its placeholder removed). Frames nest (at most as deep as the adapter went).
 */
export function stitchFrames(root: ComposedFrame, pageUrl: string, policy: TargetPolicy): string {
  if (!root.frames.length) return root.html;
  const $ = loadHtml(root.html);
  for (const f of root.frames) {
    const el = $(`[data-gleaner-frame="${f.id}"]`);
    if (!el.length) continue;
    const allowed = /^https?:/.test(f.url) && (sameSite(f.url, pageUrl) || isAllowlisted(policy, f.url));
    if (!allowed) {
      el.remove();
      continue;
    }
    const inner = loadHtml(stitchFrames(f, pageUrl, policy))('body').html() ?? '';
    el.replaceWith(`<div data-gleaner-frame-src="${f.url.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">${inner}</div>`);
  }
  return $.html();
}
