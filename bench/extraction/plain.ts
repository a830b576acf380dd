/**
 * Markdown reduced to its words for scoring: images dropped (`![alt](src)` -> ``: an alt text is
 * not text of the page), link targets dropped (`[t](url)` -> `t`), so URLs do not count as
 * predicted text unless the page shows them as a link's text (`<https://…>` -> `https://…`); emphasis underscores dropped;
 * a code fence's language (```` ```python ````) and a table cell's `<br>` dropped (markup, not text of the page).
 */
export function markdownToPlain(md: string): string {
  return md
    .replace(/^(\s*)(`{3,}|~{3,})[^`\n]*$/gm, '$1$2')
    .replace(/<br>/g, ' ')
    .replace(/!\[((?:[^\]\\]|\\.)*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '')
    .replace(/!?\[((?:[^\]\\]|\\.)*)\]\((?:[^()\s]|\([^()]*\))*(?:\s+"[^"]*")?\)/g, '$1')
    // An autolink's text is its URL (the page shows the URL as the link's text): keep it as text.
    .replace(/<(https?:[^>\s]+)>/g, '$1')
    // Emphasis underscores (`_word_`): \w counts `_` as a word character.
    .replace(/(^|[^\p{L}\p{N}_])_+|_+(?=$|[^\p{L}\p{N}_])/gmu, '$1')
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, '$1');
}
