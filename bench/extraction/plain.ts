/**
 * Markdown reduced to its words for scoring: images dropped (`![alt](src)` -> ``: an alt text is
 * not text of the page), link targets dropped (`[t](url)` -> `t`), so URLs do not count as
 * predicted text unless the page shows them as a link's text (`<https://…>` -> `https://…`); emphasis underscores dropped;
 * a code fence's language (```` ```python ````) and a table cell's `<br>` dropped (markup, not text of the page).
 * Outside code fences, the markers a reader never sees are dropped too: emphasis asterisks and
 * strike-through tildes, an inline code span's backticks, a heading's hashes, a bullet's dash, a quote's `>`. They are no words,
 * so word scores do not move; a snippet check (the text a snippet should be found in) does: a
 * sentence with a bold phrase in it is found as the page shows it. An ordered list's numbers stay
 * (the reference texts keep them about as often as not).
 */
export function markdownToPlain(md: string): string {
  return withoutMarkers(md)
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

// A fence's opening or closing line; the lines between are code, left as written.
const FENCE = /^\s*(`{3,}|~{3,})/;

/** `md` without the markers of emphasis, headings, bullets and quotes, outside code fences. */
function withoutMarkers(md: string): string {
  let fence: string | undefined;
  return md
    .split('\n')
    .map((line) => {
      const f = FENCE.exec(line)?.[1];
      if (f && (!fence || f.startsWith(fence))) {
        fence = fence ? undefined : f;
        return line;
      }
      if (fence) return line;
      return line
        .replace(/^(\s*(?:>\s?)*)(?:#{1,6}\s+)/, '$1')
        .replace(/^(\s*)(?:>\s?)+/, '$1')
        .replace(/^(\s*)[-*+]\s+(?=\S)/, '$1')
        // An inline code span's backticks (`` `select` `` reads "select" on the page).
        .replace(/(?<![\\`])(`+)(?!`)(.*?[^`])\1(?!`)/g, (_, _ticks: string, code: string) => code.trim())
        .replace(/(?<!\\)(?:\*\*|~~)/g, '')
        .replace(/(?<![\\\p{L}\p{N}*])\*(?=[^\s*])|(?<=[^\s\\*])\*(?![\p{L}\p{N}*])/gu, '');
    })
    .join('\n');
}
