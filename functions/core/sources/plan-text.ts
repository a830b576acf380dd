import type { QueryPlan, SourceItem } from './types.js';
import { planTerms } from './http-json.js';

// ---------------------------------------------------------------------------------------------
// Client-side text matching shared by connectors whose API cannot filter by text
// ---------------------------------------------------------------------------------------------

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function norm(s: string): string {
  return s.normalize('NFKC').toLowerCase();
}

/** The term at a word start (prefix match: "shoe" matches "shoes", "ai" does not match "said"). */
function hasTerm(hay: string, term: string): boolean {
  const t = norm(term).replace(/\s+/g, ' ').trim();
  if (!t) return false;
  const pattern = escapeRe(t).replace(/ /g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${pattern}`, 'u').test(hay);
}

function hasTag(hay: string, prefix: '#' | '@', name: string): boolean {
  const t = norm(name).trim();
  if (!t) return false;
  return new RegExp(`${prefix}${escapeRe(t)}(?![\\p{L}\\p{N}_])`, 'u').test(hay);
}

/**
 * Client-side equivalent of the shared query meaning (http-json `buildSearchText`): the text matches
 * when it contains ALL keywords and phrases, or ANY hashtag (#tag) or mention (@name, or the bare
 * name as a word), and none of the exclusions. A plan with no positive term matches every text.
 * Case-insensitive; a term matches at the start of a word. `excludeOnly` checks only the exclusions
 * (for results the platform already matched, e.g. Instagram hashtag media).
 */
export function matchesPlanText(plan: QueryPlan, text: string, opts: { excludeOnly?: boolean } = {}): boolean {
  const t = planTerms(plan);
  const hay = norm(text);
  if (t.exclude.some((x) => hasTerm(hay, x))) return false;
  if (opts.excludeOnly) return true;
  const core = [...t.keywords, ...t.phrases];
  if (!core.length && !t.hashtags.length && !t.mentions.length) return true;
  if (core.length && core.every((k) => hasTerm(hay, k))) return true;
  if (t.hashtags.some((h) => hasTag(hay, '#', h))) return true;
  if (t.mentions.some((m) => hasTag(hay, '@', m) || hasTerm(hay, m))) return true;
  return false;
}

/** Newest first, by created_at. */
export function byNewest(a: SourceItem, b: SourceItem): number {
  return Date.parse(b.created_at) - Date.parse(a.created_at);
}

