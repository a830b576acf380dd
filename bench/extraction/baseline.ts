/**
 * The main-content guess Gleaner used before functions/core/content (kept here, bench-only, as a
 * baseline): the first non-trivial main/article/#content… element, else body without chrome.
 */
import type { CheerioAPI } from 'cheerio';
import { NodeHtmlMarkdown } from 'node-html-markdown';

const NON_CONTENT = 'script, style, noscript, template, svg, iframe, object, embed, canvas';
const NAVIGATION = 'nav, aside, [role="navigation"], [aria-hidden="true"]';
const BODY_CHROME = 'header, footer, form, [role="banner"], [role="contentinfo"]';
const MAIN_CANDIDATES = ['main', 'article', '[role="main"]', '#content', '#main', '.content', '.post', '.article'];
const nhm = new NodeHtmlMarkdown({ bulletMarker: '-', codeBlockStyle: 'fenced', ignore: ['script', 'style', 'noscript', 'template', 'iframe'] });

export function oldMainContentMarkdown($: CheerioAPI): string {
  let main: ReturnType<CheerioAPI> | undefined;
  for (const sel of MAIN_CANDIDATES) {
    const el = $(sel).first();
    if (el.length && el.text().trim().length > 40) {
      main = el;
      break;
    }
  }
  main = (main ?? ($('body').length ? $('body') : $.root())).clone();
  main.find(NON_CONTENT).remove();
  main.find(NAVIGATION).remove();
  if (main.is('body')) main.find(BODY_CHROME).remove();
  return nhm.translate($.html(main)).trim();
}
