/**
 * The two page sets the extraction bench and the corpus test read.
 *
 * - The public article-extraction benchmark (bench/data/article-extraction-benchmark): 181 pages,
 *   expected text = the ground truth's articleBody.
 * - Gleaner's own corpus (test/fixtures/content-corpus): hand-written pages of other types; the
 *   expected text is the readable text of the regions between `<!--main-->` and `<!--/main-->`
 *   comments (extractors never read comments), plus must-include / must-exclude snippets in
 *   manifest.json.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { load } from 'cheerio';

export interface BenchPage {
  id: string;
  url: string;
  html: string;
  expected: string;
  include?: string[];
  exclude?: string[];
  /** Gleaner's corpus: the page's kind (`metadata.page_kind`), where the manifest gives one. */
  pageKind?: string;
  /** Gleaner's corpus: its known gaps on the page (CorpusEntry.known_gaps). */
  knownGaps?: CorpusEntry['known_gaps'];
}

const root = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));

export function benchmarkPages(): BenchPage[] {
  const dir = root('bench/data/article-extraction-benchmark');
  const truth = JSON.parse(readFileSync(`${dir}/ground-truth.json`, 'utf8')) as Record<string, { articleBody: string; url: string }>;
  return readdirSync(`${dir}/html`)
    .filter((f) => f.endsWith('.html.gz'))
    .sort()
    .map((f) => {
      const id = f.replace(/\.html\.gz$/, '');
      return { id, url: truth[id].url, html: gunzipSync(readFileSync(`${dir}/html/${f}`)).toString('utf8'), expected: truth[id].articleBody };
    });
}

export interface CorpusEntry {
  file: string;
  url: string;
  kind: string;
  include: string[];
  exclude: string[];
  /** The `metadata.page_kind` the page must get (pages of the seven kinds beyond articles). */
  page_kind?: string;
  /**
   * What Gleaner is known to get wrong on the page today, written down rather than hidden: the
   * include snippets it misses, the exclude snippets it lets through, the kind it names instead.
   * The corpus test holds it to exactly these (a fix must remove its gap); the bench counts them
   * as failures.
   */
  known_gaps?: { missing?: string[]; leaked?: string[]; page_kind?: string };
  /** Main content the body does not show (a product's description only in its JSON-LD): expected too. */
  expected_beyond_body?: string;
}

const BLOCKS = /<\/?(p|div|li|h[1-6]|tr|td|th|pre|br|dt|dd|blockquote|section|article|table|ul|ol|figcaption)\b[^>]*>/gi;

/** Text of the `<!--main-->…<!--/main-->` regions of a corpus page. */
export function markedText(html: string): string {
  const parts: string[] = [];
  const re = /<!--main-->([\s\S]*?)<!--\/main-->/g;
  for (let m = re.exec(html); m; m = re.exec(html)) {
    const $ = load(`<body>${m[1].replace(BLOCKS, (t) => `\n${t}`)}</body>`);
    $('script, style, noscript, template').remove();
    parts.push($('body').text());
  }
  return parts.join('\n').replace(/[^\S\n]+/g, ' ').replace(/\s*\n\s*/g, '\n').trim();
}

export function corpusEntries(): CorpusEntry[] {
  return JSON.parse(readFileSync(root('test/fixtures/content-corpus/manifest.json'), 'utf8')) as CorpusEntry[];
}

export function corpusPages(): BenchPage[] {
  return corpusEntries().map((e) => {
    const html = readFileSync(root(`test/fixtures/content-corpus/${e.file}`), 'utf8');
    return { id: e.file, url: e.url, html, expected: [markedText(html), e.expected_beyond_body].filter(Boolean).join('\n'), include: e.include, exclude: e.exclude, ...(e.page_kind ? { pageKind: e.page_kind } : {}), ...(e.known_gaps ? { knownGaps: e.known_gaps } : {}) };
  });
}
