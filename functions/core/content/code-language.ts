/**
 * The language a code block's markup names, however the page's highlighter names it: `data-lang`
 * (`data-language`, `data-enlighter-language`), or a class: `language-x`, `lang-x`, `highlight-x`,
 * `highlight-source-x` / `highlight-text-x-…` (GitHub), `hljs-x`, `brush: x` (SyntaxHighlighter),
 * `sourceCode x` (pandoc), a bare known name (`rust`, `hljs python`) or a known name at the end of a
 * word (`gatsby-code-jsx`, `sp-javascript`). Used on a `<pre>`, its `<code>` and up to two wrappers.
 */

/** Names accepted without a prefix (a bare class on `pre`/`code`, or the end of a class word). */
const KNOWN = new Set([
  'bash', 'sh', 'shell', 'zsh', 'console', 'powershell', 'ps1', 'bat', 'cmd', 'python', 'py', 'python3', 'ruby', 'rb', 'perl', 'php',
  'javascript', 'js', 'jsx', 'typescript', 'ts', 'tsx', 'json', 'jsonc', 'yaml', 'yml', 'toml', 'ini', 'xml', 'html', 'css', 'scss',
  'sass', 'less', 'sql', 'graphql', 'go', 'golang', 'rust', 'java', 'kotlin', 'scala', 'groovy', 'swift', 'objc', 'cpp', 'csharp',
  'cs', 'fsharp', 'haskell', 'elixir', 'erlang', 'clojure', 'lua', 'dart', 'julia', 'zig', 'nim', 'ocaml', 'diff', 'dockerfile',
  'docker', 'makefile', 'cmake', 'nginx', 'apache', 'markdown', 'md', 'latex', 'tex', 'matlab', 'solidity', 'vue', 'svelte', 'hcl',
  'terraform', 'protobuf', 'proto', 'asm', 'nasm', 'wasm', 'vb', 'vbnet', 'fortran', 'cobol', 'pascal', 'prolog', 'lisp', 'scheme',
  'racket', 'elm', 'crystal', 'hack', 'jinja', 'jinja2', 'twig', 'handlebars', 'cypher', 'sparql', 'http', 'csv', 'pycon',
  'ipython', 'ipython3', 'python2', 'c', 'r', 'c++', 'objective-c', 'cuda', 'glsl', 'pwsh', 'sas', 'stata', 'vim', 'xquery',
]);
/** Named, but not a language: the block is plain text. */
const NOT_A_LANGUAGE = new Set(['none', 'nohighlight', 'plaintext', 'plain', 'text', 'txt', 'default', 'auto', 'output']);

const PREFIXED = /(?:^|\s)(language|lang|highlight-source|highlight-text|highlight|hljs|brush)(?:-|:\s*)([A-Za-z0-9_+#.]+(?:-[A-Za-z0-9_+#.]+)*)/gi;
const VALID = /^[a-z0-9_+#.-]{1,30}$/;

/** Attribute values of one element, or null when it is absent. */
export type AttributeOf = (name: string) => string | null | undefined;

/**
 * What `el`'s attributes say: a language, '' for a block named plain text, undefined for nothing
 * said. `bare`: whether a bare known name counts (on `pre` and `code`, not on wrappers).
 */
function named(attr: AttributeOf, bare: boolean): string | undefined {
  const data = attr('data-lang') ?? attr('data-language') ?? attr('data-enlighter-language');
  const cls = attr('class') ?? '';
  let lang = data?.trim().toLowerCase();
  if (!lang && cls) {
    for (const m of cls.matchAll(PREFIXED)) {
      const prefix = m[1].toLowerCase();
      let name = m[2].toLowerCase();
      // GitHub's `highlight-text-html-basic`, `highlight-source-c++`: the first word names it.
      if (prefix === 'highlight-source' || prefix === 'highlight-text') name = name.split('-')[0];
      // `highlight-…` and `hljs-…` also name boxes and tokens (`highlight-box`): known names only.
      else if ((prefix === 'highlight' || prefix === 'hljs') && !KNOWN.has(name) && !NOT_A_LANGUAGE.has(name)) continue;
      lang = name;
      break;
    }
    if (!lang && bare) {
      for (const word of cls.toLowerCase().split(/\s+/)) {
        // One letter (`c`, `r`) only with a prefix; a word's tail only when it is not a short
        // abbreviation a layout class could end in (`col-md`, `text-sm`).
        if (word.length > 1 && (KNOWN.has(word) || NOT_A_LANGUAGE.has(word))) lang = word;
        else {
          const tail = word.slice(word.lastIndexOf('-') + 1);
          if (tail.length > 2 && tail !== word && KNOWN.has(tail)) lang = tail;
        }
        if (lang) break;
      }
    }
  }
  if (!lang || !VALID.test(lang)) return undefined;
  return NOT_A_LANGUAGE.has(lang) ? '' : lang;
}

/** The language of a code block from its elements, nearest first (code, pre, wrapper, wrapper's wrapper). */
export function codeLanguageOf(elements: { attr: AttributeOf; bare: boolean }[]): string {
  for (const el of elements) {
    const lang = named(el.attr, el.bare);
    if (lang !== undefined) return lang;
  }
  return '';
}
