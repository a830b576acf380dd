import { describe, expect, it } from 'vitest';
import { routes } from '../../../functions/routes.js';
import { allowedMethods } from '../../../functions/http/allowed-methods.js';
import { DOCS_CSP } from '../../../functions/http/docs-page.js';
import { CONSOLE_CSP } from '../../../functions/http/console-get.js';

describe('Allow from the route table', () => {
  it('lists the methods rows serve on a concrete path (HEAD with GET), none for unknown paths', () => {
    expect(allowedMethods(routes, '/v1/runs')).toEqual(['GET', 'HEAD', 'POST']);
    expect(allowedMethods(routes, '/mcp')).toEqual(['POST']);
    expect(allowedMethods(routes, '/v1/runs/run_01/cancel')).toEqual(['POST']);
    expect(allowedMethods(routes, '/v1/jobs/job_1')).toEqual(['DELETE', 'GET', 'HEAD', 'PATCH']);
    expect(allowedMethods(routes, '/console/app.js')).toEqual(['GET', 'HEAD']);
    expect(allowedMethods(routes, '/v1/nothing')).toEqual([]);
    expect(allowedMethods(routes, '/v1/runs/a/b/c')).toEqual([]);
  });

  it('never lets the catch-all row itself make every path "known"', () => {
    expect(allowedMethods(routes, '/anything/at/all')).toEqual([]);
  });
});

describe('the docs page CSP', () => {
  it("is the console's CSP with only style-src widened to inline styles", () => {
    const parse = (csp: string) => Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v.join(' ')]));
    const docs = parse(DOCS_CSP);
    const consoleCsp = parse(CONSOLE_CSP);
    expect(docs['style-src']).toBe(`${consoleCsp['style-src']} 'unsafe-inline'`);
    expect({ ...docs, 'style-src': consoleCsp['style-src'] }).toEqual(consoleCsp);
  });
});
