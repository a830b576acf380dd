/**
 * Main content on every kind of page (`npm run bench -- content`), side by side in one run:
 *
 *   - WCXB development pages (bench/content/wcxb.ts, seven kinds): mean word F1 (WCXB's scoring,
 *     bench/content/words.ts) overall, per kind and per half (tune / check, by id hash), the
 *     "with" and "without" snippet rates, markdown structure fidelity against the pages'
 *     `main_content_markdown` (bench/content/structure.ts), page-kind accuracy per kind, and CPU
 *     ms per page of each extractor over the same pages;
 *   - the public article benchmark (bench/data/article-extraction-benchmark, its 4-word-shingle
 *     scoring, as `npm run bench -- extraction`).
 *
 * Extractors on the same bytes: Gleaner (parsePage markdown made plain, the service path),
 * @mozilla/readability on linkedom (textContent), defuddle on linkedom (its content's text).
 *
 * Env: CONTENT_ARMS=<regex> picks extractors by name; CONTENT_HALF=tune|check limits WCXB to one
 * half; CONTENT_KINDS=<regex> limits WCXB to some kinds; CONTENT_DUMP=<dir> writes Gleaner's
 * per-page scores and outputs (and the other arms' scores) (for tuning: read the tune half only); CONTENT_SERVED_AT=elsewhere
 * gives Gleaner each page as served from another address (`http://127.0.0.1:8080/saved-N.html`,
 * as a harness serving saved pages would) instead of its own URL, so the path signs of its kind
 * come only from the address the page declares (canonical, og:url).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { load } from 'cheerio';
import { parseHTML } from 'linkedom';
import { Readability } from '@mozilla/readability';
import { Defuddle } from 'defuddle/node';
import { parsePage } from '../functions/core/engine/parse.js';
import { markdownToPlain } from './extraction/plain.js';
import { aggregate, pageCounts, type PageCounts } from './extraction/score.js';
import { benchmarkPages, corpusPages, type BenchPage } from './extraction/corpus.js';
import { wcxbAvailable, wcxbPages, type WcxbPage } from './content/wcxb.js';
import { mean, snippetRates, wordScore } from './content/words.js';
import { fidelity, type Fidelity } from './content/structure.js';

interface Out {
  text: string;
  markdown?: string;
  kind?: string | null;
}
type Extractor = (html: string, url: string) => Out | Promise<Out>;

const servedElsewhere = process.env.CONTENT_SERVED_AT === 'elsewhere';
let served = 0;

const extractors: Record<string, Extractor> = {
  Gleaner: (html, url) => {
    if (servedElsewhere) url = `http://127.0.0.1:8080/saved-${++served}.html`;
    const r = parsePage(load(html), url, { text: false, links: false });
    return { text: markdownToPlain(r.markdown), markdown: r.markdown, kind: r.metadata.page_kind };
  },
  'Readability.js': (html) => {
    const { document } = parseHTML(html);
    return { text: new Readability(document as unknown as Document).parse()?.textContent ?? '' };
  },
  defuddle: async (html, url) => {
    const { document } = parseHTML(html);
    const error = console.error;
    console.error = () => {};
    const r = await Defuddle(document as unknown as Document, url, {}).finally(() => (console.error = error));
    const $ = load(`<body>${r.content.replace(/<\/?(p|div|li|h[1-6]|tr|pre|br|blockquote)\b/gi, '\n$&')}</body>`);
    return { text: $('body').text() };
  },
};

const armFilter = process.env.CONTENT_ARMS ? new RegExp(process.env.CONTENT_ARMS, 'i') : undefined;
const half = process.env.CONTENT_HALF;
const kinds = process.env.CONTENT_KINDS ? new RegExp(process.env.CONTENT_KINDS) : undefined;
const dump = process.env.CONTENT_DUMP;
if (dump) mkdirSync(dump, { recursive: true });

const pages: WcxbPage[] = wcxbAvailable() ? wcxbPages((_, k) => !kinds || kinds.test(k)).filter((p) => !half || p.half === half) : [];
if (!pages.length) console.log('WCXB development pages not found (WCXB_DIR): only the article benchmark runs.');
const articles: BenchPage[] = process.env.CONTENT_SKIP_ARTICLES ? [] : benchmarkPages();
// Gleaner's own pages of the kinds beyond articles (test/fixtures/content-corpus, those whose
// manifest names a page_kind): written apart from WCXB, never tuned on, scored the same way against
// the text of their marked main regions.
const own: BenchPage[] = corpusPages().filter((p) => p.pageKind && (!kinds || kinds.test(p.pageKind)));

interface PageResult {
  page: WcxbPage;
  f1: number;
  precision: number;
  recall: number;
  withRate: number;
  withoutRate: number;
  fid?: Fidelity;
  kind?: string | null;
}
interface ArmResult {
  name: string;
  wcxb: PageResult[];
  wcxbMs: number;
  articles: PageCounts[];
  own: { page: BenchPage; f1: number; snippets: boolean; kind?: string | null }[];
}

/** One extractor's output on one page; an empty text (and the error on stderr) when it throws. */
async function extract(name: string, fn: Extractor, p: { id: string; html: string; url: string }): Promise<Out> {
  try {
    return await fn(p.html, p.url);
  } catch (e) {
    console.error(`${name} failed on ${p.id}: ${(e as Error).message}`);
    return { text: '' };
  }
}

function cpu(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1000;
}

const results: ArmResult[] = [];
for (const [name, fn] of Object.entries(extractors)) {
  if (armFilter && !armFilter.test(name)) continue;
  const wcxb: PageResult[] = [];
  let ms = 0;
  const lines: string[] = [];
  for (const p of pages) {
    const t0 = cpu();
    const out = await extract(name, fn, p);
    ms += cpu() - t0;
    const s = wordScore(p.expected, out.text);
    const [withRate, withoutRate] = snippetRates(out.text, p.with, p.without);
    const r: PageResult = { page: p, ...s, withRate, withoutRate, kind: out.kind };
    if (out.markdown !== undefined && p.markdown) r.fid = fidelity(p.markdown, out.markdown);
    wcxb.push(r);
    if (dump) {
      lines.push(`${s.f1.toFixed(3)}\t${s.precision.toFixed(3)}\t${s.recall.toFixed(3)}\t${p.id}\t${p.kind}\t${out.kind ?? ''}\t${p.half}\t${p.url}`);
      if (name === 'Gleaner') writeFileSync(`${dump}/${p.id}.md`, out.markdown ?? out.text);
    }
  }
  // Gleaner's scores in scores.tsv, the other arms' beside them (scores.Readability.tsv…).
  if (dump && lines.length) writeFileSync(`${dump}/scores${name === 'Gleaner' ? '' : `.${name.replace(/\W+/g, '-')}`}.tsv`, lines.sort().join('\n'));
  const art: PageCounts[] = [];
  for (const p of articles) {
    const out = await extract(name, fn, p);
    art.push(pageCounts(p.expected, out.text));
  }
  const ownRs: ArmResult['own'] = [];
  for (const p of own) {
    const out = await extract(name, fn, p);
    const [withRate, withoutRate] = snippetRates(out.text, p.include ?? [], p.exclude ?? []);
    ownRs.push({ page: p, f1: wordScore(p.expected, out.text).f1, snippets: withRate === 1 && withoutRate === 1, kind: out.kind });
  }
  results.push({ name, wcxb, wcxbMs: pages.length ? ms / pages.length : NaN, articles: art, own: ownRs });
  process.stdout.write(`  ${name} done\n`);
}

const f = (n: number) => (Number.isNaN(n) ? '–' : n.toFixed(3));
const KINDS = ['article', 'documentation', 'forum', 'service', 'product', 'listing', 'collection'];
const groups: [string, (r: PageResult) => boolean][] = [
  ['all', () => true],
  ['tune half', (r) => r.page.half === 'tune'],
  ['check half', (r) => r.page.half === 'check'],
  ...KINDS.map((k): [string, (r: PageResult) => boolean] => [k, (r) => r.page.kind === k]),
  ...KINDS.map((k): [string, (r: PageResult) => boolean] => [`${k} (check)`, (r) => r.page.kind === k && r.page.half === 'check']),
];
if (pages.length) {
  console.log(`\nWCXB development pages (${pages.length}), mean word F1 / with rate / without rate:`);
  console.log(`| pages | n | ${results.map((r) => `${r.name} F1 | with | without`).join(' | ')} |`);
  console.log(`|---|---|${results.map(() => '---|---|---').join('|')}|`);
  for (const [label, pick] of groups) {
    const n = results[0].wcxb.filter(pick).length;
    if (!n) continue;
    console.log(`| ${label} | ${n} | ${results.map((r) => { const rs = r.wcxb.filter(pick); return `${f(mean(rs.map((x) => x.f1)))} | ${f(mean(rs.map((x) => x.withRate)))} | ${f(mean(rs.map((x) => x.withoutRate)))}`; }).join(' | ')} |`);
  }
  console.log(`\nCPU ms per page over the same pages: ${results.map((r) => `${r.name} ${r.wcxbMs.toFixed(1)}`).join(', ')}`);
  const g = results.find((r) => r.name === 'Gleaner');
  if (g) {
    const withFid = g.wcxb.filter((r) => r.fid);
    console.log(`\nGleaner markdown structure fidelity against main_content_markdown (${withFid.length} pages; min/max of counts, heading levels as a multiset, over the pages whose reference has the feature; "+n": pages where only ours has it, not scored):`);
    console.log('| pages | headings | list items | tables | code blocks |');
    console.log('|---|---|---|---|---|');
    const FEATURES = ['headings', 'lists', 'tables', 'code'] as const;
    for (const [label, pick] of groups.slice(0, 3 + KINDS.length)) {
      const rs = withFid.filter(pick);
      if (!rs.length) continue;
      const cell = (k: (typeof FEATURES)[number]) => {
        const scored = rs.filter((r) => !Number.isNaN(r.fid![k]));
        return `${f(mean(scored.map((r) => r.fid![k])))} (${scored.length}, +${rs.filter((r) => r.fid!.extra[k]).length})`;
      };
      console.log(`| ${label} | ${FEATURES.map(cell).join(' | ')} |`);
    }
    console.log('\nmetadata.page_kind against the WCXB kind (rows: true kind; accuracy = share right):');
    const labels = [...KINDS, 'other'];
    console.log(`| kind | n | accuracy | ${labels.join(' | ')} |`);
    console.log(`|---|---|---|${labels.map(() => '---').join('|')}|`);
    let right = 0;
    for (const k of KINDS) {
      const rs = g.wcxb.filter((r) => r.page.kind === k);
      if (!rs.length) continue;
      const ok = rs.filter((r) => r.kind === k).length;
      right += ok;
      console.log(`| ${k} | ${rs.length} | ${f(ok / rs.length)} | ${labels.map((l) => rs.filter((r) => (r.kind ?? 'other') === l).length).join(' | ')} |`);
    }
    console.log(`overall accuracy ${f(right / g.wcxb.length)}; check half ${f(g.wcxb.filter((r) => r.page.half === 'check' && r.kind === r.page.kind).length / g.wcxb.filter((r) => r.page.half === 'check').length)}`);
  }
}
if (own.length) {
  console.log(`\nGleaner's own pages beyond articles (test/fixtures/content-corpus, ${own.length} pages), mean word F1 against the marked main regions / pages whose must-include and must-exclude snippets all hold:`);
  console.log(`| kind | n | ${results.map((r) => `${r.name} F1 | snippets`).join(' | ')} |`);
  console.log(`|---|---|${results.map(() => '---|---').join('|')}|`);
  for (const k of ['all', ...new Set(own.map((p) => p.pageKind!))]) {
    const pick = (x: { page: BenchPage }) => k === 'all' || x.page.pageKind === k;
    const n = own.filter((p) => pick({ page: p })).length;
    console.log(`| ${k} | ${n} | ${results.map((r) => { const rs = r.own.filter(pick); return `${f(mean(rs.map((x) => x.f1)))} | ${rs.filter((x) => x.snippets).length}/${rs.length}`; }).join(' | ')} |`);
  }
  const g = results.find((r) => r.name === 'Gleaner');
  if (g) {
    const wrong = g.own.filter((x) => x.kind !== x.page.pageKind);
    console.log(`Gleaner's page_kind right on ${g.own.length - wrong.length}/${g.own.length}${wrong.length ? ` (${wrong.map((x) => `${x.page.id}: ${x.kind} for ${x.page.pageKind}`).join(', ')})` : ''}`);
  }
}
if (articles.length) {
  console.log(`\nArticle benchmark (${articles.length} pages, 4-word shingles):`);
  console.log('| extractor | F1 | precision | recall |');
  console.log('|---|---|---|---|');
  for (const r of results) {
    const s = aggregate(r.articles);
    console.log(`| ${r.name} | ${f(s.f1)} | ${f(s.precision)} | ${f(s.recall)} |`);
  }
}
