// The RE2 engine url-patterns.ts compiles patterns with, loaded on the first compile (see `re2`
// there). A CommonJS `require`, not an import: in a bundle of a `validators` route (routes.ts) the
// package is installed beside the bundle and must be loaded when this module is first used, which
// only a require does (an external ESM import is hoisted to the bundle's top and loaded at init).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see above
export const { RE2JS } = require('re2js') as typeof import('re2js');
