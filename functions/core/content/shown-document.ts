import type { CheerioAPI } from 'cheerio';
import { repairMojibake } from './mojibake.js';
import { completeStreamedContent } from './streamed-content.js';

/**
 * The document as people see it, made so before anything reads it (typed data, the parse, field
 * extraction): React's streamed content moved into place, as the page's scripts do in a browser
 * (streamed-content.ts), and text double-encoded as Windows-1252 put back (mojibake.ts). Each step
 * runs once a document, whichever entry point calls first.
 */
export function showDocument($: CheerioAPI): void {
  completeStreamedContent($);
  repairMojibake($);
}
