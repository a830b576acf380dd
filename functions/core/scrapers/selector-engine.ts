// The selector engine input-fields.ts checks selectors with, loaded on the first check (see
// `selectorEngine` there). The slim build: the same selector engine as the engine's cheerio,
// without its network and encoding stack (undici, parse5, iconv-lite).
export { load } from 'cheerio/slim';
