import { describe, expect, it } from 'vitest';
import { csvCell } from '../../../functions/core/runs/run-export.js';

// OWASP "CSV Injection": a cell a spreadsheet would read as a formula starts with one of these.
describe('CSV cells (issue 19 finding 6)', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1', '\tcmd', '\rcmd'])('neutralises %j with a leading quote', (v) => {
    const out = csvCell(v);
    expect(out.startsWith(`"'`)).toBe(true);
    // The value itself is kept after the quote, CSV-escaped.
    expect(out.slice(2, -1).replace(/""/g, '"')).toBe(v);
  });

  it('leaves ordinary values alone and quotes separators', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell(null)).toBe('');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(' =1')).toBe(' =1');
  });
});
