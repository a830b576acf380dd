/**
 * The WCXB development pages (../shared/corpora/wcxb-dev, CC-BY-4.0, Murrough Foley): 1,358 saved
 * pages of seven kinds with their hand-checked main content. Only the development split is here;
 * the benchmark's held-out split is never read.
 *
 * Split for tuning: a page is in the "tune" half or the "check" half by a hash of its id (FNV-1a),
 * so a rule tuned on one half is measured on pages it never saw.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

export interface WcxbPage {
  id: string;
  kind: string;
  url: string;
  html: string;
  /** Plain text of the main content (headings on their own lines, paragraphs blank-line separated). */
  expected: string;
  markdown?: string;
  with: string[];
  without: string[];
  half: 'tune' | 'check';
}

export const WCXB_DIR = process.env.WCXB_DIR ?? fileURLToPath(new URL('../../../shared/corpora/wcxb-dev', import.meta.url));

/** FNV-1a of the id: the half a page belongs to. */
export function halfOf(id: string): 'tune' | 'check' {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
  return h % 2 === 0 ? 'tune' : 'check';
}

interface Truth {
  url: string;
  ground_truth: { main_content: string; main_content_markdown?: string; with?: string[]; without?: string[] };
}

export function wcxbAvailable(): boolean {
  return existsSync(`${WCXB_DIR}/metadata.json`);
}

export function wcxbPages(filter?: (id: string, kind: string) => boolean): WcxbPage[] {
  const meta = JSON.parse(readFileSync(`${WCXB_DIR}/metadata.json`, 'utf8')) as { files: Record<string, { page_type: string; split: string }> };
  const out: WcxbPage[] = [];
  for (const f of readdirSync(`${WCXB_DIR}/dev/html`).sort()) {
    if (!f.endsWith('.html.gz')) continue;
    const id = f.replace(/\.html\.gz$/, '');
    const m = meta.files[id];
    if (!m || m.split !== 'dev') continue;
    if (filter && !filter(id, m.page_type)) continue;
    const t = JSON.parse(readFileSync(`${WCXB_DIR}/dev/ground-truth/${id}.json`, 'utf8')) as Truth;
    out.push({
      id,
      kind: m.page_type,
      url: t.url,
      html: gunzipSync(readFileSync(`${WCXB_DIR}/dev/html/${f}`)).toString('utf8'),
      expected: t.ground_truth.main_content ?? '',
      markdown: t.ground_truth.main_content_markdown,
      with: t.ground_truth.with ?? [],
      without: t.ground_truth.without ?? [],
      half: halfOf(id),
    });
  }
  return out;
}
