import type { CheerioAPI } from 'cheerio';
import { loadHtml } from '../content/load-html.js';

/** Verdict of {@link needsJs}: whether the `auto` engine should re-fetch with a browser, and why. */
export interface NeedsJsVerdict {
  needed: boolean;
  reason: string | null;
}

const APP_ROOTS = ['#root', '#app', '#__next', '#__nuxt', '#svelte', '[data-reactroot]', 'app-root', '[ng-app]', '#main-app'];
const NOSCRIPT_HINT = /enable javascript|javascript (is )?(required|disabled|must be enabled)|requires javascript|turn on javascript|need(s)? javascript/i;
/** Below this much visible body text, a page with scripts is treated as a shell. */
export const MIN_STATIC_TEXT = 200;

function visibleTextLength($: CheerioAPI): number {
  const body = $('body').clone();
  body.find('script, style, noscript, template, svg').remove();
  return body.text().replace(/\s+/g, ' ').trim().length;
}

/**
 * Heuristic for `engine: "auto"`: does this HTML need JavaScript to show its content?
 * Signals, strongest first: an empty single-page-app root next to a script; a `<noscript>`
 * asking to enable JavaScript on a page with little text; almost no visible text but scripts.
 * Static pages with real text never trigger it, so `auto` stays on the cheap http engine.
 */
export function needsJs(html: string | CheerioAPI): NeedsJsVerdict {
  const $ = typeof html === 'string' ? loadHtml(html) : html;
  const scripts = $('script').filter((_, el) => {
    const type = ($(el).attr('type') ?? '').toLowerCase();
    return !type || type.includes('javascript') || type === 'module';
  });
  const hasScript = scripts.length > 0;
  const textLen = visibleTextLength($);

  if (hasScript) {
    for (const sel of APP_ROOTS) {
      const root = $(sel).first();
      if (root.length && root.text().replace(/\s+/g, ' ').trim().length < 20 && textLen < 4 * MIN_STATIC_TEXT) {
        return { needed: true, reason: `empty app root ${sel} with script` };
      }
    }
  }
  const noscript = $('noscript').text();
  if (NOSCRIPT_HINT.test(noscript) && textLen < 4 * MIN_STATIC_TEXT) {
    return { needed: true, reason: 'noscript asks to enable JavaScript' };
  }
  if (hasScript && textLen < MIN_STATIC_TEXT) {
    return { needed: true, reason: `only ${textLen} characters of text with scripts` };
  }
  return { needed: false, reason: null };
}
