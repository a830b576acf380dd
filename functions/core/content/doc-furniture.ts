/**
 * Documentation furniture inside the selected content, told by its words where its markup says
 * nothing (clean.ts asks): the label of a table of contents ("On this page", "In this article",
 * "Contents") with the link lists after it, "Edit this page" / "Edit on GitHub" links, feedback
 * widgets ("Was this page helpful?"), previous/next links.
 */
import { type DomNode } from './dom.js';
import { pageKind } from './page-kind.js';
import { linkDensity, type Scored } from './score.js';

/** Longest block (characters) judged by its words as documentation furniture. */
export const MAX_FURNITURE_CHARS = 200;

// The label of a table of contents, the whole block: "On this page", "In this article", "Contents".
const TOC_LABEL = new RegExp(
  `^(?:${[
    'table of contents', 'contents', 'page contents', 'on this page', "what's on this page", 'in this (?:article|page|section|guide|doc|document|topic|tutorial)', 'jump to(?: section)?',
    'inhaltsverzeichnis', 'inhalt', 'auf dieser seite', 'in diesem artikel', 'índice', 'contenido', 'en esta página', 'en este artículo', 'nesta página', 'neste artigo', 'conteúdo',
    'sommaire', 'table des matières', 'sur cette page', 'dans cet article', 'indice', 'in questa pagina', 'in questo articolo', 'spis treści', 'na tej stronie', 'inhoud', 'op deze pagina',
    'содержание', 'на этой странице', 'в этой статье', '目次', 'このページの内容', '目录', '本页内容', '本页目录', '在本文中', '목차', '이 페이지의 내용',
  ].join('|')})\\s*[:：]?$`,
  'iu',
);
// A feedback widget: "Was this page helpful?", "Did you find this article useful?", "Rate this page".
const FEEDBACK = new RegExp(
  `^(?:${[
    'was this (?:page |article |content |section |information |document |doc |topic |guide |tutorial |answer )?(?:helpful|useful)', 'is this (?:page|article|content) (?:helpful|useful)',
    'did (?:you find )?this (?:page|article|content|doc|guide)(?: help| helpful| useful)', 'how (?:helpful|useful) (?:was|is) this', 'rate this (?:page|article|doc)', 'thanks? (?:you )?for (?:your )?feedback',
    'war diese seite hilfreich', 'ist diese seite hilfreich', '¿?te ha resultado útil', '¿?(?:fue|es) útil esta página', 'cette page (?:vous )?a-t-elle été utile', 'cette page est-elle utile',
    'questa pagina (?:è stata|ti è stata) utile', 'esta página (?:foi|é) útil', 'czy ta strona była pomocna', 'была ли эта страница полезной', 'このページは(?:役に立ちましたか|参考になりましたか)', '此页面(?:是否)?有帮助', '这篇文章(?:是否)?有帮助',
  ].join('|')})`,
  'iu',
);
// Links to change the page: "Edit this page", "Edit on GitHub", "Improve this doc", "Suggest an edit".
const EDIT = new RegExp(
  `^(?:${[
    'edit (?:this )?(?:page|article|doc|document|file)(?: on (?:github|gitlab|bitbucket))?', 'edit on (?:github|gitlab|bitbucket)', 'improve this (?:page|doc|article|documentation)', 'suggest (?:an )?edits?(?: to this page)?',
    'view (?:page )?source', 'view (?:this page )?on (?:github|gitlab)', 'propose (?:changes|an edit)', 'report an issue with this page', 'open an issue', 'seite bearbeiten', 'diese seite bearbeiten',
    'editar (?:esta )?página', 'modifier cette page', 'modifica (?:questa )?pagina', 'edytuj (?:tę )?stronę', 'редактировать (?:эту )?страницу', 'このページを編集', '编辑此页', '在 github 上编辑此页',
  ].join('|')})\\s*[:：!.…↗→]*$`,
  'iu',
);
// Previous / next links: "« Previous: Installation   Next: Configuration »", "← Prev Next →".
const PAGER = /^(?:[«‹←<]\s*)?(?:previous|prev|next|anterior|siguiente|próximo|précédent|suivant|zurück|weiter|vorherige|nächste|precedente|successivo|poprzedni|następny|vorige|volgende|предыдущая|следующая|назад|далее|上一页|下一页|上一篇|下一篇|前へ|次へ|前のページ|次のページ|이전|다음)(?!\s+steps?\b)(?=$|[\s:：»›→>|]|\p{Lu})/iu;

/** What a short block of a page's content is by its words, when it is documentation furniture. */
export function docFurnitureKind(text: string, links: number): 'toc' | 'feedback' | 'edit' | 'pager' | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t || t.length > MAX_FURNITURE_CHARS) return null;
  if (t.length <= 40 && TOC_LABEL.test(t)) return 'toc';
  if (FEEDBACK.test(t) && t.length <= 160) return 'feedback';
  if (t.length <= 60 && EDIT.test(t)) return 'edit';
  if (links >= 0.5 && PAGER.test(t)) return 'pager';
  return null;
}

const LISTS = new Set(['ul', 'ol', 'dl', 'nav', 'menu']);

/**
 * The table of contents a label (`label`, one of `siblings`) opens: the lists of links right after
 * it (or a block that is mostly such a list), up to the first block that is not one.
 */
export function tocAfter(label: DomNode, siblings: DomNode[], scored: Scored): DomNode[] {
  const out: DomNode[] = [];
  for (let i = siblings.indexOf(label) + 1; i < siblings.length; i++) {
    const c = siblings[i];
    const s = scored.stats.get(c);
    if (!s || s.text === 0) continue;
    const list = LISTS.has(c.name ?? '') || s.listText >= s.text * 0.8;
    if (!list || linkDensity(s) < 0.5) break;
    out.push(c);
  }
  return out;
}

/** Whether the document `node` is in was classified a documentation page (page-kind.ts, once per document). */
export function isDocumentation(node: DomNode): boolean {
  return pageKind(node, { url: '' }) === 'documentation';
}
