/**
 * Markdown reduced to its words for scoring: images dropped (`![alt](src)` -> ``: an alt text is
 * not text of the page), link targets dropped (`[t](url)` -> `t`, `<https://…>` -> ``), so URLs do
 * not count as predicted text.
 */
export function markdownToPlain(md: string): string {
  return md
    .replace(/!\[((?:[^\]\\]|\\.)*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '')
    .replace(/!?\[((?:[^\]\\]|\\.)*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/<https?:[^>\s]+>/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}
