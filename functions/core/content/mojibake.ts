import type { CheerioAPI } from 'cheerio';
import type { AnyNode } from 'domhandler';

/**
 * Text that was UTF-8, read as Windows-1252 or Latin-1 and written out again ("mojibake"): the
 * page's own bytes say `doesnâ€™t`, `Ã©tÃ©`, `Â ` where its author wrote `doesn’t`, `été`, a
 * no-break space. A browser shows the garbage as it is; a reader (a person, a model) wants the
 * words. Each run that reads as the Windows-1252 or Latin-1 spelling of one UTF-8 character (a lead
 * byte, then its continuation bytes) is put back, when those bytes are valid UTF-8. A document is
 * repaired only when it shows several such runs ({@link MIN_RUNS}): one `Ã©` may be meant.
 * Returns how many runs were repaired.
 */
export function repairMojibake($: CheerioAPI): number {
  const root = $.root().get(0);
  if (!root || repaired.has(root)) return 0;
  repaired.add(root);
  // Each text node holding a run, with its repaired text, read once; written only when the
  // document shows enough runs.
  const repairs: Array<[AnyNode & { data: string }, string]> = [];
  let fixed = 0;
  const stack: AnyNode[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.type === 'text') {
      const t = n as AnyNode & { data: string };
      if (!MARKER.test(t.data)) continue;
      const back = t.data.replace(RUN, (run) => {
        const ch = decode(run);
        if (ch === undefined) return run;
        fixed++;
        return ch;
      });
      if (back !== t.data) repairs.push([t, back]);
      continue;
    }
    const el = n as { name?: string; children?: AnyNode[] };
    if (el.name && NOT_TEXT.has(el.name)) continue;
    const kids = el.children;
    if (kids) for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  if (fixed < MIN_RUNS) return 0;
  for (const [t, back] of repairs) t.data = back;
  return fixed;
}

// Elements whose text is code or data, not words.
const NOT_TEXT = new Set(['script', 'style', 'template', 'svg', 'math']);

/** Documents already looked at (the parse and typed data read the same document). */
const repaired = new WeakSet<object>();

/** Runs a document shows before it is taken for mojibake. */
export const MIN_RUNS = 3;

// Windows-1252's characters for bytes 0x80-0x9F (the rest of 0x80-0xFF are Latin-1's own).
const CP1252: Record<string, number> = {
  '€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88, '‰': 0x89, 'Š': 0x8a, '‹': 0x8b,
  'Œ': 0x8c, 'Ž': 0x8e, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99,
  'š': 0x9a, '›': 0x9b, 'œ': 0x9c, 'ž': 0x9e, 'Ÿ': 0x9f,
};

// A continuation byte (0x80-0xBF) as Latin-1 or Windows-1252 shows it.
const CONT = `[\\u0080-\\u00BF${Object.keys(CP1252).join('')}]`;
// A lead byte and its continuation bytes: two-, three- and four-byte characters.
const RUN = new RegExp(`[\\u00C2-\\u00DF]${CONT}|[\\u00E0-\\u00EF]${CONT}{2}|[\\u00F0-\\u00F4]${CONT}{3}`, 'g');
// Any lead byte before a continuation byte: a text node worth looking at.
const MARKER = new RegExp(`[\\u00C2-\\u00F4]${CONT}`);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The character a run spells in UTF-8, or undefined when its bytes are not valid UTF-8. */
function decode(run: string): string | undefined {
  const bytes = new Uint8Array(run.length);
  for (let i = 0; i < run.length; i++) {
    const c = run[i]!;
    const code = c.charCodeAt(0);
    bytes[i] = code <= 0xff ? code : CP1252[c] ?? 0;
    if (bytes[i] === 0) return undefined;
  }
  let out: string;
  try {
    out = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  return plausible(out.codePointAt(0)!) ? out : undefined;
}

/**
 * Whether a repaired character is one mojibake hides: Latin letters and signs (`é`, a no-break
 * space), punctuation and symbols (`’`, `—`, `€`, `™`), CJK and Hangul text, emoji. Not the scripts
 * in between: `ß“` (a German word's end and its closing quote) spells U+07D3 in UTF-8, and is meant.
 */
function plausible(cp: number): boolean {
  return cp <= 0x24f || (cp >= 0x2000 && cp <= 0x2bff) || (cp >= 0x3000 && cp <= 0x9fff) || (cp >= 0xac00 && cp <= 0xd7af) || cp >= 0x1f000;
}
