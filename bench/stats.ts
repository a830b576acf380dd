/** Small helpers shared by the benchmarks: percentiles and a uniform report line. */
export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
};

export async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

export interface BenchResult {
  name: string;
  measured: string;
  baseline: string;
  ratio: number;
  target: string;
  pass: boolean;
}

export function report(results: BenchResult[]) {
  console.log('\n| benchmark | measured | baseline | ratio | target | |');
  console.log('|---|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${r.measured} | ${r.baseline} | ${r.ratio.toFixed(2)} | ${r.target} | ${r.pass ? 'ok' : 'MISSED'} |`);
}
