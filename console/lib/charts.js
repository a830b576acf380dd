// Time-series charts for the console (uPlot, vendored in console/vendor: no CDN, works under the
// strict CSP because uPlot styles elements through the CSSOM, never with inline style attributes).
import uPlot from '../vendor/uplot.esm.js';
import { h } from './dom.js';
import { whenWords } from './words.js';

const COLORS = ['#1f6f55', '#2f6fb0', '#b5542d', '#7a4fb3'];

/**
 * A line chart of `series` ([{ label, values }]) over bucket start times `times` (ISO strings).
 * Returns the wrapper element; the chart sizes itself to the wrapper's width and follows resizes.
 * Each chart also carries a visually hidden table with the same numbers for screen readers.
 */
export function timeChart({ id, title, times, series, bucketLabel = 'Hour (UTC)' }) {
  const plotHost = h('div', { class: 'chart-plot', 'aria-hidden': 'true' });
  // A legend that reads without hovering: each series' colour, name and total over the window
  // (uPlot's own legend shows "--" until the pointer is over the plot).
  const legend = h('ul', { class: 'chart-legend' }, series.map((s, i) => {
    const sw = h('span', { class: 'swatch', 'aria-hidden': 'true' });
    sw.style.background = COLORS[i % COLORS.length];
    const total = s.values.reduce((n, v) => n + (v ?? 0), 0);
    return h('li', {}, sw, `${s.label}: ${total} in total`);
  }));
  const readout = h('p', { class: 'chart-readout hint', 'aria-hidden': 'true' }, 'Point at the chart to read one interval.');
  const summary = h('table', { class: 'sr-only' },
    h('caption', {}, title),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, bucketLabel), series.map((s) => h('th', { scope: 'col' }, s.label)))),
    h('tbody', {}, times.map((t, i) => h('tr', {}, h('td', {}, t), series.map((s) => h('td', {}, String(s.values[i] ?? 0)))))));
  const el = h('figure', { class: 'card chart', id, dataset: { points: String(times.length) } }, h('figcaption', { class: 'h2' }, title), legend, plotHost, readout, summary);
  const data = [times.map((t) => Date.parse(t) / 1000), ...series.map((s) => s.values)];
  const opts = {
    width: 400,
    height: 180,
    legend: { show: false },
    // The console shows every time in UTC.
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    cursor: { drag: { x: false, y: false } },
    hooks: {
      setCursor: [(u) => {
        const i = u.cursor.idx;
        readout.textContent = i === null || i === undefined
          ? 'Point at the chart to read one interval.'
          : `${whenWords(new Date(data[0][i] * 1000).toISOString())}: ${series.map((s) => `${s.label} ${s.values[i] ?? 0}`).join(', ')}`;
      }],
    },
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    axes: [{ stroke: '#5b6b64', grid: { stroke: '#e3e9e6' } }, { stroke: '#5b6b64', grid: { stroke: '#e3e9e6' }, size: 44 }],
    series: [{}, ...series.map((s, i) => ({ label: s.label, stroke: COLORS[i % COLORS.length], width: 2, points: { show: times.length < 50 } }))],
  };
  let plot = null;
  const fit = () => {
    const w = Math.max(200, Math.floor(plotHost.clientWidth || 400));
    if (!plot) plot = new uPlot({ ...opts, width: w }, data, plotHost);
    else plot.setSize({ width: w, height: opts.height });
  };
  // Drawn once the wrapper is in the document (its width is known then), redrawn on resize.
  const ro = new ResizeObserver(() => fit());
  ro.observe(plotHost);
  return el;
}
