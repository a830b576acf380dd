// The selector engine input-fields.ts checks selectors with, loaded on the first check (see
// `selectorEngine` there). The slim build: the same selector engine as the engine's cheerio,
// without its network and encoding stack (undici, parse5, iconv-lite). A CommonJS `require` for
// the reason given in re2-engine.ts.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- see re2-engine.ts
export const { load } = require('cheerio/slim') as typeof import('cheerio/slim');
