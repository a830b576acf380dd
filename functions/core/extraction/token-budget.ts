/**
 * Token estimates and the page cut. Providers count tokens with their own tokenizers, which the
 * service does not have; ~4 characters per token is the usual estimate for English prose and
 * markdown (higher for code and non-Latin text, so the budget leaves headroom). The real counts
 * come back in the provider's usage and are what is metered.
 */

export const CHARS_PER_TOKEN = 4;

/** Estimated tokens of `text`. */
export const estimateTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

export interface CutResult {
  text: string;
  truncated: boolean;
}

/**
 * `markdown` cut to about `maxTokens`, at a block boundary (a blank line: paragraphs, headings,
 * list and table blocks stay whole). When even the first block is over budget, it is cut at the
 * last whitespace before the limit: never inside a word.
 */
export function cutToBudget(markdown: string, maxTokens: number): CutResult {
  const maxChars = Math.max(0, Math.floor(maxTokens * CHARS_PER_TOKEN));
  if (markdown.length <= maxChars) return { text: markdown, truncated: false };
  // The last block boundary at or before the limit.
  const head = markdown.slice(0, maxChars + 1);
  const boundary = head.lastIndexOf('\n\n');
  if (boundary > 0) return { text: markdown.slice(0, boundary).trimEnd(), truncated: true };
  // One block longer than the budget: the last whitespace before the limit.
  const space = head.search(/\s\S*$/);
  return { text: space > 0 ? markdown.slice(0, space).trimEnd() : '', truncated: true };
}
