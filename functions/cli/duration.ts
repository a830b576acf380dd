/** '30d', '24h', '15m', '90s' -> milliseconds. */
export function parseDuration(s: string): number {
  const m = /^(\d+)([smhdw])$/.exec(s.trim());
  if (!m) throw Object.assign(new Error(`Duration must look like 30d, 24h, 15m or 90s (got "${s}")`), { name: 'UsageError' });
  const unit = { s: 1e3, m: 6e4, h: 3.6e6, d: 8.64e7, w: 6.048e8 }[m[2] as 's' | 'm' | 'h' | 'd' | 'w'];
  return Number(m[1]) * unit;
}
