/**
 * Markdown reduced to its words for scoring: link and image targets dropped (`[t](url)` -> `t`,
 * `![alt](src)` -> `alt`, `<https://…>` -> ``), so URLs do not count as predicted text.
 */
export function markdownToPlain(md: string): string {
  return md
    .replace(/!?\[((?:[^\]\\]|\\.)*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    .replace(/<https?:[^>\s]+>/g, '')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}
