import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parsePage } from '../../../functions/core/engine/parse.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/markdown/${name}`, import.meta.url));

// Golden output of the markdown format: headings, lists (nested and ordered), a GFM table, inline
// and fenced code, links and images made absolute against <base>, quotes; navigation, asides,
// scripts and styles left out. Set UPDATE_GOLDEN=1 to rewrite the .md after a deliberate change.
describe('markdown format (golden output)', () => {
  it('converts the rich fixture page exactly as recorded', () => {
    const md = parsePage(readFileSync(fixture('rich.html'), 'utf8'), 'https://docs.example.test/guide/start').markdown;
    if (process.env.UPDATE_GOLDEN) writeFileSync(fixture('rich.md'), `${md}\n`);
    expect(md).toBe(readFileSync(fixture('rich.md'), 'utf8').trimEnd());
  });

  it('keeps the structures readers rely on', () => {
    const md = parsePage(readFileSync(fixture('rich.html'), 'utf8'), 'https://docs.example.test/guide/start').markdown;
    expect(md).toContain('# Getting started');
    expect(md).toContain('## Lists');
    expect(md).toMatch(/^- First item$/m);
    expect(md).toMatch(/^\s+- Nested item$/m);
    expect(md).toMatch(/^1\. Step one$/m);
    expect(md).toMatch(/^\| Plan \| Pages +\|$/m);
    expect(md).toMatch(/^\| Team \| 100,000 \|$/m);
    expect(md).toMatch(/^\| -+ \| -+ \|$/m);
    expect(md).toContain('```bash\nnpm start\ncurl http://127.0.0.1:8787/v1\n```');
    expect(md).toContain('`gleaner start`');
    expect(md).toContain('[reference](https://docs.example.test/reference#cli)');
    expect(md).toContain('![Logo](https://docs.example.test/guide/img/logo.png)');
    expect(md).toContain('> Governed scraping.');
    for (const noise of ['Related links', 'never content', 'display:none', 'Footer', '[Docs]']) expect(md).not.toContain(noise);
  });
});
