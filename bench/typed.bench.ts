import { shapePage } from '../functions/core/engine/shape-page.js';
import type { ScrapeFormat } from '../functions/core/engine/types.js';
import { corpus, type CorpusPage } from './typed-corpus.js';

/**
 * `npm run bench -- typed`: typed data without a schema on the corpus of bench/typed-corpus.ts.
 * Per set and field: precision (kept values that are right), recall (true values found) and F1,
 * scored by exact match (prices as decimals, availability as schema.org names); a value the truth
 * marks null must be absent (else it is a false positive). Then the CPU time of shaping each page
 * with `markdown` alone and with `markdown` plus its typed format (the engine's shape step, the
 * same call the pipeline makes), median of GLEANER_BENCH_TYPED_ROUNDS rounds (default 5).
 */
const ROUNDS = Number(process.env.GLEANER_BENCH_TYPED_ROUNDS ?? 5);

type Got = Record<string, string | number | undefined>;

/** What the page gave for the scored fields, flattened like the truth. */
function got(page: CorpusPage): Got {
  const parts = shapePage(page.html, { url: page.url, formats: [page.format as ScrapeFormat], decideAuto: false, staticOverlays: true });
  const t = parts.typed ?? {};
  if (page.format === 'product') {
    const p = t.product;
    return p ? { name: p.name, price: p.price, currency: p.currency, availability: p.availability, sku: p.sku } : {};
  }
  if (page.format === 'product_list') {
    const l = t.product_list;
    if (!l) return {};
    return {
      category_name: l.category_name, page_number: l.page_number, next_page_url: l.next_page_url, product_count: l.products?.length,
      product_urls: l.products?.map((x) => x.url ?? '').join(' '), product_prices: l.products?.map((x) => x.price ?? '').join(' '),
    };
  }
  if (page.format === 'job_posting') {
    const j = t.job_posting;
    return j ? { job_title: j.job_title, date_published: j.date_published?.slice(0, 10), hiring_organization: j.hiring_organization?.name, job_location: j.job_location?.raw, employment_type: j.employment_type, salary: j.base_salary?.raw } : {};
  }
  return {};
}

interface Tally { tp: number; fp: number; fn: number; n: number }
const f1 = (t: Tally) => {
  const p = t.tp + t.fp ? t.tp / (t.tp + t.fp) : 1;
  const r = t.tp + t.fn ? t.tp / (t.tp + t.fn) : 1;
  return { p, r, f: p + r ? (2 * p * r) / (p + r) : 0 };
};
const same = (a: unknown, b: unknown) => (typeof b === 'string' && /^\d+\.\d+$/.test(b) && typeof a === 'string' ? Number(a) === Number(b) : String(a) === String(b));

const pages = corpus();
const tallies = new Map<string, Tally>();
const misses: string[] = [];
for (const page of pages) {
  const g = got(page);
  for (const [field, truth] of Object.entries(page.truth)) {
    const key = `${page.set}\t${page.format}\t${field}`;
    const t = tallies.get(key) ?? { tp: 0, fp: 0, fn: 0, n: 0 };
    t.n++;
    const v = g[field];
    const has = v !== undefined && v !== '';
    if (truth === null) {
      if (has) {
        t.fp++;
        misses.push(`${page.id} ${field}: expected none, got ${JSON.stringify(v)}`);
      }
    } else if (!has) {
      t.fn++;
      misses.push(`${page.id} ${field}: expected ${JSON.stringify(truth)}, got none`);
    } else if (same(v, truth)) t.tp++;
    else {
      t.fp++;
      t.fn++;
      misses.push(`${page.id} ${field}: expected ${JSON.stringify(truth)}, got ${JSON.stringify(v)}`);
    }
    tallies.set(key, t);
  }
}

console.log(`typed data: ${pages.length} pages (${pages.filter((p) => p.set === 'zyte').length} zyte-test-websites, ${pages.filter((p) => p.set === 'own').length} own)\n`);
console.log('set   format        field                 pages  precision  recall   F1');
for (const [key, t] of tallies) {
  const [set, format, field] = key.split('\t');
  const s = f1(t);
  console.log(`${set.padEnd(6)}${format.padEnd(14)}${field.padEnd(22)}${String(t.n).padStart(5)}  ${s.p.toFixed(3).padStart(9)}  ${s.r.toFixed(3).padStart(6)}  ${s.f.toFixed(3)}`);
}
if (misses.length) console.log(`\nmisses (${misses.length}):\n  ${misses.slice(0, 40).join('\n  ')}`);

// CPU per page: shape with markdown alone, and with markdown plus the page's typed format.
const cpu = (fn: () => void) => {
  const a = process.cpuUsage();
  fn();
  const b = process.cpuUsage(a);
  return (b.user + b.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const base: number[] = [];
const withTyped: number[] = [];
for (let r = 0; r < ROUNDS; r++) {
  for (const page of pages) {
    base.push(cpu(() => shapePage(page.html, { url: page.url, formats: ['markdown'], decideAuto: false, staticOverlays: true })));
    withTyped.push(cpu(() => shapePage(page.html, { url: page.url, formats: ['markdown', page.format as ScrapeFormat], decideAuto: false, staticOverlays: true })));
  }
}
const extra = withTyped.map((x, i) => x - base[i]!);
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
console.log(`\nCPU per page (${ROUNDS} rounds): markdown ${median(base).toFixed(2)} ms median; markdown + typed ${median(withTyped).toFixed(2)} ms; typed extra ${median(extra).toFixed(2)} ms median, ${p95(extra).toFixed(2)} ms p95 (goal ≤ 20 ms)`);
