// The RE2 engine url-patterns.ts compiles patterns with, loaded on the first compile (see `re2`
// there).
export { RE2JS } from 're2js';
