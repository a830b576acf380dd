import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cruise, type ICruiseResult, type IForbiddenRuleType } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
/** The real rules `npm run depcheck` runs. */
const config = require('../../../.dependency-cruiser.cjs') as {
  forbidden: IForbiddenRuleType[];
  options: { doNotFollow: unknown; tsPreCompilationDeps: boolean; enhancedResolveOptions: object };
};
const fixture = fileURLToPath(new URL('../../fixtures/dependency-rules/', import.meta.url));

/** Cruise the miniature functions/ tree with the real rules; violations as `rule: from -> to`. */
async function violations(): Promise<string[]> {
  const { output } = await cruise(['functions'], {
    baseDir: fixture,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    doNotFollow: config.options.doNotFollow as never,
    tsPreCompilationDeps: config.options.tsPreCompilationDeps,
    enhancedResolveOptions: config.options.enhancedResolveOptions,
  });
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => `${v.rule.severity} ${v.rule.name}: ${v.from} -> ${v.to.replace(/^.*node_modules\//, '')}`);
}

describe('dependency rules (issue 10: house rules in CI)', () => {
  it('are all errors: the browser-driver rule is no longer a warning', () => {
    // Arrange
    const byName = new Map(config.forbidden.map((r) => [r.name, r]));
    // Assert
    expect(byName.get('core-not-to-browser-driver')?.severity).toBe('error');
    expect(byName.get('core-network-through-governance')?.severity).toBe('error');
    expect(config.forbidden.filter((r) => r.severity !== 'error').map((r) => r.name)).toEqual([]);
  });

  it('report a core file importing puppeteer types or the network stack, and nothing else', async () => {
    // Act
    const found = await violations();
    // Assert: type-only imports count; the port and governance are allowed.
    expect(found).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^error core-not-to-browser-driver: functions\/core\/engine\/driver-types\.ts -> puppeteer-core\//),
        expect.stringMatching(/^error core-network-through-governance: functions\/core\/engine\/node-http\.ts -> (node:)?http$/),
        expect.stringMatching(/^error core-network-through-governance: functions\/core\/engine\/node-http\.ts -> undici\//),
      ]),
    );
    expect(found).toHaveLength(3);
    expect(found.join('\n')).not.toMatch(/clean\.ts|governance\/guard\.ts|ports\/browser\.ts/);
  });
});
