/**
 * Main-content extraction, side by side in one run (`npm run bench -- extraction`):
 *
 *   - on the public article-extraction benchmark (181 news/blog pages, the benchmark's own
 *     4-word-shingle scoring, bench/extraction/score.ts), and
 *   - on Gleaner's own corpus (test/fixtures/content-corpus: docs, product, forum, listing,
 *     non-English pages…), scored the same way against the marked main regions, plus the count of
 *     pages whose must-include / must-exclude snippets all hold.
 *
 * Extractors: Gleaner's markdown (parsePage, the service path) scored twice: "md raw" is the
 * markdown as returned (link URLs and markup count as predicted text), "md plain" is the same
 * markdown with link/image targets removed (bench/extraction/plain.ts); @mozilla/readability on
 * linkedom (textContent); defuddle on linkedom (its content's text); and the old main-content
 * guess Gleaner had before (bench/extraction/baseline.ts, markdown made plain the same way).
 * Then CPU ms per page on the benchmark pages: Gleaner's markdown vs Readability, and Gleaner's
 * default formats vs cheerio + turndown on the body (what a Crawlee user writes).
 *
 * Env: EXTRACTION_ONLY=<regex> limits the benchmark pages by id; EXTRACTION_ARMS=<regex> the extractors
 * by name (timing runs only when both Gleaner and Readability are in); EXTRACTION_DUMP=<dir> writes
 * Gleaner's per-page scores and output there (for tuning).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { load } from 'cheerio';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { parsePage } from '../functions/core/engine/parse.js';
import { aggregate, pageCounts, type PageCounts, type Scores } from './extraction/score.js';
import { markdownToPlain } from './extraction/plain.js';
import { oldMainContentMarkdown } from './extraction/baseline.js';
import { benchmarkPages, corpusPages, type BenchPage } from './extraction/corpus.js';
import { pageLanguage } from './extraction/language.js';

type Extractor = (p: BenchPage) => string | Promise<string>;

// Markdown only (no metadata walk), so its timing below compares like with like against Readability.
const gleanerMd = (p: BenchPage) => parsePage(load(p.html), p.url, { text: false, links: false, metadata: false }).markdown;
// Both Gleaner rows score the same markdown: convert each page once.
const mdCache = new Map<BenchPage, string>();
const gleanerMdOnce = (p: BenchPage) => {
  let md = mdCache.get(p);
  if (md === undefined) mdCache.set(p, (md = gleanerMd(p)));
  return md;
};
const extractors: Record<string, Extractor> = {
  'Gleaner markdown (md raw)': gleanerMdOnce,
  'Gleaner markdown (md plain)': (p) => markdownToPlain(gleanerMdOnce(p)),
  'old main-content guess (md plain)': (p) => markdownToPlain(oldMainContentMarkdown(load(p.html))),
  '@mozilla/readability (linkedom)': (p) => {
    const { document } = parseHTML(p.html);
    return new Readability(document as unknown as Document).parse()?.textContent ?? '';
  },
  'defuddle (linkedom)': async (p) => {
    const { document } = parseHTML(p.html);
    // defuddle logs every page's malformed JSON-LD to console.error; keep the table readable.
    const error = console.error;
    console.error = () => {};
    const r = await Defuddle(document as unknown as Document, p.url, {}).finally(() => (console.error = error));
    const $ = load(`<body>${r.content.replace(/<\/?(p|div|li|h[1-6]|tr|pre|br|blockquote)\b/gi, '\n$&')}</body>`);
    return $('body').text();
  },
};

/** Corpus snippet check: every include present, no exclude present (whitespace-normalised). */
function snippetsHold(p: BenchPage, out: string): boolean {
  const norm = (s: string) => s.replace(/\s+/g, ' ');
  const text = norm(out);
  return (p.include ?? []).every((s) => text.includes(norm(s))) && !(p.exclude ?? []).some((s) => text.includes(norm(s)));
}

interface Row { name: string; bench: Scores; corpus: Scores; snippets: string }

const only = process.env.EXTRACTION_ONLY ? new RegExp(process.env.EXTRACTION_ONLY) : undefined;
const bench = benchmarkPages().filter((p) => !only || only.test(p.id));
const corpus = corpusPages();
const dump = process.env.EXTRACTION_DUMP;
if (dump) mkdirSync(dump, { recursive: true });

const rows: Row[] = [];
// Per-language breakdown of Gleaner's plain markdown (bench/extraction/language.ts names each page's language).
const byLanguage = new Map<string, { bench: PageCounts[]; corpus: PageCounts[] }>();
const languageOf = (p: BenchPage, set: 'bench' | 'corpus') => {
  const lang = pageLanguage(p.html, p.expected);
  let e = byLanguage.get(lang);
  if (!e) byLanguage.set(lang, (e = { bench: [], corpus: [] }));
  return e[set];
};
const perLanguageArm = 'Gleaner markdown (md plain)';
const arms = process.env.EXTRACTION_ARMS ? new RegExp(process.env.EXTRACTION_ARMS, 'i') : undefined;
for (const [name, fn] of Object.entries(extractors)) {
  if (arms && !arms.test(name)) continue;
  const counts: PageCounts[] = [];
  const perPage: string[] = [];
  for (const p of bench) {
    let out = '';
    try {
      out = await fn(p);
    } catch (e) {
      console.error(`${name} failed on ${p.id}: ${(e as Error).message}`);
    }
    const c = pageCounts(p.expected, out);
    counts.push(c);
    if (name === perLanguageArm) languageOf(p, 'bench').push(c);
    if (dump && name.startsWith('Gleaner') && name.includes('plain')) {
      const s = aggregate([c]);
      perPage.push(`${s.f1.toFixed(3)}\t${s.precision.toFixed(3)}\t${s.recall.toFixed(3)}\t${p.id}\t${p.url}`);
      writeFileSync(`${dump}/${p.id}.out.txt`, out);
      writeFileSync(`${dump}/${p.id}.truth.txt`, p.expected);
    }
  }
  if (perPage.length) writeFileSync(`${dump}/scores.tsv`, perPage.sort().join('\n'));
  const ccounts: PageCounts[] = [];
  let ok = 0;
  const failed: string[] = [];
  for (const p of corpus) {
    const out = await fn(p);
    // Each arm already returns what it is scored on (the plain rows convert their markdown), as in the benchmark loop above.
    ccounts.push(pageCounts(p.expected, out));
    if (name === perLanguageArm) languageOf(p, 'corpus').push(ccounts[ccounts.length - 1]);
    if (snippetsHold(p, out)) ok++;
    else failed.push(p.id);
  }
  rows.push({ name, bench: aggregate(counts), corpus: aggregate(ccounts), snippets: `${ok}/${corpus.length}${failed.length && failed.length <= 4 ? ` (missed: ${failed.join(', ')})` : ''}` });
  process.stdout.write(`  ${name} done\n`);
}

// Timing, CPU ms per page on a quarter of the benchmark pages (process.cpuUsage; interleaved A B B A rounds,
// so a busy machine hits both alike): Gleaner's markdown (cheerio parse + main content +
// markdown) vs Readability (linkedom parse + Readability), and Gleaner's default formats
// (markdown, text, links, metadata) vs what a Crawlee user writes (cheerio + turndown on the body).
const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
turndown.remove(['script', 'style', 'noscript', 'template', 'iframe']);
const timedArms: Record<string, (p: BenchPage) => unknown> = {
  gleanerMd,
  readability: extractors['@mozilla/readability (linkedom)'] as (p: BenchPage) => string,
  gleanerDefault: (p) => parsePage(load(p.html), p.url),
  turndownBody: (p) => {
    const $ = load(p.html);
    return turndown.turndown($.html($('body')));
  },
};
// Every fourth benchmark page keeps the run under three minutes on a shared machine.
const timedPages = bench.filter((_, i) => i % 4 === 0);
function cpuMs(fn: (p: BenchPage) => unknown): number {
  const c0 = process.cpuUsage();
  for (const p of timedPages) fn(p);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000 / timedPages.length;
}
function comparePair(a: string, b: string, rounds = 4): [number, number] {
  for (const p of timedPages.slice(0, 5)) {
    timedArms[a](p); // warm-up
    timedArms[b](p);
  }
  let ta = 0;
  let tb = 0;
  for (let r = 0; r < rounds; r++) {
    const first = r % 2 === 0 ? a : b;
    const firstMs = cpuMs(timedArms[first]);
    const secondMs = cpuMs(timedArms[first === a ? b : a]);
    ta += first === a ? firstMs : secondMs;
    tb += first === a ? secondMs : firstMs;
  }
  return [ta / rounds, tb / rounds];
}
const timed = !arms || (arms.test('Gleaner markdown (md raw)') && arms.test('@mozilla/readability (linkedom)'));
const [gleanerMs, readabilityMs] = timed ? comparePair('gleanerMd', 'readability') : [NaN, NaN];
const [defaultMs, turndownMs] = timed ? comparePair('gleanerDefault', 'turndownBody') : [NaN, NaN];

const f = (n: number) => n.toFixed(3);
console.log(`\nExtraction bench: public benchmark (${bench.length} pages) and Gleaner's corpus (${corpus.length} pages), 4-word shingles`);
console.log('| extractor | bench F1 | bench P | bench R | corpus F1 | corpus P | corpus R | corpus snippets ok |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${f(r.bench.f1)} | ${f(r.bench.precision)} | ${f(r.bench.recall)} | ${f(r.corpus.f1)} | ${f(r.corpus.precision)} | ${f(r.corpus.recall)} | ${r.snippets} |`);
if (byLanguage.size) {
  console.log(`\n${perLanguageArm} by page language (declared by the page, else guessed from its script; ? = Latin script, undeclared):`);
  console.log('| language | bench pages | bench F1 | bench P | bench R | corpus pages | corpus F1 | corpus P | corpus R |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const cell = (cs: PageCounts[]) => (cs.length ? ((s) => `${cs.length} | ${f(s.f1)} | ${f(s.precision)} | ${f(s.recall)}`)(aggregate(cs)) : '0 | | | ');
  for (const [lang, e] of [...byLanguage].sort(([, a], [, b]) => b.bench.length + b.corpus.length - a.bench.length - a.corpus.length)) console.log(`| ${lang} | ${cell(e.bench)} | ${cell(e.corpus)} |`);
}
if (timed) {
  console.log(`\nCPU ms per page on benchmark pages (parse included, ${timedPages.length} pages, interleaved A B B A rounds):`);
  console.log(`  main content: Gleaner markdown ${gleanerMs.toFixed(1)} ms vs Readability on linkedom ${readabilityMs.toFixed(1)} ms (Readability/Gleaner ${(readabilityMs / gleanerMs).toFixed(2)})`);
  console.log(`  default formats: Gleaner (markdown, text, links, metadata) ${defaultMs.toFixed(1)} ms vs cheerio + turndown on the body ${turndownMs.toFixed(1)} ms (turndown/Gleaner ${(turndownMs / defaultMs).toFixed(2)})`);
}
