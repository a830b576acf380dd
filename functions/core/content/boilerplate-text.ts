/**
 * A signal of the clean phase: boilerplate recognised by its words, in many languages, where its
 * markup says nothing (class names in the site's own language, or none). Sites put these lines
 * inside the story container, between and after its paragraphs:
 *
 * - "read also" teasers: a label and a link to another story (Leia também:, À lire aussi :,
 *   Lesen Sie auch:, Читайте также:, 相关阅读：…);
 * - share prompts (Share:, Compartilhe:, Partagez-le !, 分享到：…) with their buttons;
 * - tag lists (Tags:, Etiquetas:, Mots-clés :, Schlagworte:, 标签：…);
 * - legal lines (all rights reserved, reproduction forbidden, copyright notices) and comment
 *   moderation notices;
 * - editor credits (责任编辑：…, Edited by …);
 * - headings of related-story sections (You may also like, Noticias relacionadas, 関連記事…).
 *
 * Only short blocks are judged (a paragraph of prose that mentions sharing is prose), and the
 * label forms must start the block: "Share prices rose" is not a share prompt.
 */

/** Longest block (characters of text) judged by its words. */
export const MAX_BOILERPLATE_CHARS = 320;

const READ_ALSO = [
  'read (?:also|more|next)', 'see also', 'related(?: (?:article|story|stories|posts?|content|reading|news))?', 'more on this(?: story| topic)?', 'also read', 'recommended(?: reading)?',
  'leia (?:também|mais)', 'veja (?:também|mais)', 'saiba mais', 'confira (?:também)?', 'lee (?:también|más)', 'lea (?:también|más)', 'ver también', 'te puede interesar', 'puede interesarte',
  '(?:à )?lire aussi', 'voir aussi', 'à voir aussi', 'sur le même sujet', 'leggi anche', 'leggi (?:di più|altro)', 'vedi anche',
  'lesen sie (?:auch|mehr)', 'auch interessant', 'mehr zum thema', 'siehe auch', 'lees (?:ook|meer)', 'zie ook', 'czytaj (?:też|także|również|więcej)', 'zobacz (?:też|także|również)',
  'читайте (?:также|ещё|еще)', 'см\\. также', 'смотрите также', 'по теме', 'читати також', 'devamını oku', 'ilgili haberler',
  '相关阅读', '相关新闻', '相关文章', '延伸阅读', '推荐阅读', '相關閱讀', '延伸閱讀', '関連記事', '関連ニュース', 'あわせて読みたい', '관련\\s?기사', '함께 보면 좋은',
  'اقرأ أيضا', 'اقرأ أيضاً',
];
const SHARE = [
  'share(?: this(?: article| story| post| page)?| on)?', 'sharing is caring', 'compartilhe(?: esta notícia| este artigo)?', 'compartilhar', 'comparte(?: esta noticia| este artículo)?', 'compartir',
  'partager(?: sur)?', 'partagez(?:-le| cet article)?', 'condividi(?: su)?', 'teilen(?: sie)?', 'artikel teilen', 'delen', 'udostępnij', 'поделиться', 'поділитися',
  '分享到', '分享', 'シェア(?:する)?', '공유(?:하기)?', 'شارك',
];
const TAGS = [
  'tags?', 'tagged(?: with)?', 'topics?', 'keywords', 'etiquetas', 'palavras-chave', 'temas', 'mots-clés', 'mots clés', 'thèmes', 'argomenti', 'parole chiave', 'schlagwörter', 'schlagworte', 'stichwörter',
  'themen', 'trefwoorden', 'tagi', 'теги', 'метки', 'ключевые слова', '标签', '標籤', '关键词', 'タグ', 'キーワード', '태그', 'الوسوم',
];
const EDITOR = ['责任编辑', '編集', '编辑', 'edited by', 'editor', 'redação', 'redacción', 'rédaction', 'redaktion', 'redazione', 'редактор'];

const opening = (words: string[]) => new RegExp(`^(?:${words.join('|')})\\s*[:：!！?？.…»\\-–—|]`, 'iu');
const whole = (words: string[]) => new RegExp(`^(?:${words.join('|')})\\s*[:：!！.…]*$`, 'iu');

const READ_ALSO_LABEL = opening(READ_ALSO);
const SHARE_LABEL = opening(SHARE);
const SHARE_ALONE = whole(SHARE);
const TAGS_LABEL = opening(TAGS);
const TAGS_ALONE = whole(TAGS);
const LABEL_ALONE = whole([...READ_ALSO, ...SHARE, ...TAGS]);
const EDITOR_LABEL = opening(EDITOR);
// A share prompt need not start the block ("Vous avez aimé cet article ? Partagez-le !").
const SHARE_ANYWHERE = /\b(?:share (?:this|it)|partagez|compartilhe|comparte|condividi|teilen sie)\b|分享到/iu;

/** Legal lines and comment-moderation notices: recognised anywhere in a short block. */
const LEGAL = new RegExp(
  [
    '^(?:copyright\\s*)?(?:©|\\(c\\))', 'all rights reserved', 'may not be (?:reproduced|republished)', '(?:with|without) (?:the )?prior written permission', 'constitutes acceptance of (?:our|the) terms',
    'todos os direitos reservados', 'proibida a reprodução', 'é proibida a reprodução', 'todos los derechos reservados', 'prohibida (?:la|su) reproducción', 'queda prohibida la reproducción',
    'tous droits réservés', 'reproduction (?:même partielle )?(?:est )?interdite', 'toute reproduction(?:,)? même partielle', 'tutti i diritti riservati', 'riproduzione riservata', 'vietata la riproduzione',
    'alle rechte vorbehalten', 'nachdruck (?:nur|verboten)', 'alle rechten voorbehouden', 'wszelkie prawa zastrzeżone', 'все права защищены', 'перепечатка (?:материалов|запрещена)', 'усі права захищені',
    '版权所有', '版權所有', '版权声明', '未经(?:授权|许可)不得转载', '禁止转载', '無断転載', '無断複製', '무단\\s?전재', '저작권자', 'جميع الحقوق محفوظة',
    '(?:comments?|comentários?|comentarios?|commentaires?|commenti|kommentare?|комментари\\w*)\\b.{0,120}\\b(?:moderat\\w*|moderad\\w*|modéré\\w*|aprovad\\w*|approved|модер\\w*)',
  ].join('|'),
  'iu',
);

/** Headings of related-story and most-read sections (the whole heading is the phrase). */
const SECTION_HEADING = new RegExp(
  `^(?:${[
    ...READ_ALSO, 'you (?:may|might) (?:also )?like', 'you may also be interested in', 'more (?:stories|news|articles|from [\\w\\s]+)', 'most (?:read|popular|viewed)', 'trending(?: now)?', 'popular posts', 'recent posts',
    'mais lidas', 'mais lidos', 'notícias relacionadas', 'matérias relacionadas', 'noticias relacionadas', 'artículos relacionados', 'lo más leído', 'te puede interesar',
    'vous aimerez aussi', 'vous aimerez aussi ces articles', 'articles (?:similaires|liés)', 'les plus lus', 'à lire également', 'potrebbe interessarti(?: anche)?', 'articoli correlati', 'i più letti',
    'das könnte sie auch interessieren', 'meistgelesen', 'ähnliche artikel', 'похожие (?:статьи|новости)', 'популярное', 'самое читаемое', '热门排行', '热门文章', '猜你喜欢', '人気記事', '많이 본 뉴스',
  ].join('|')})\\s*[:：!.…]*$`,
  'iu',
);

/** What a short block's words say it is, if boilerplate. `links` is the block's link density. */
export function boilerplateKind(text: string, links: number): 'read-also' | 'share' | 'tags' | 'legal' | 'editor' | null {
  const t = text.replace(/\s+/g, ' ').trim();
  if (!t || t.length > MAX_BOILERPLATE_CHARS) return null;
  if (LEGAL.test(t)) return 'legal';
  // A label opening a block of links (or standing alone before its buttons).
  if (READ_ALSO_LABEL.test(t) && (links > 0 || t.length <= 40)) return 'read-also';
  if ((TAGS_LABEL.test(t) && (links > 0.3 || t.length <= 60)) || TAGS_ALONE.test(t)) return 'tags';
  if (SHARE_ALONE.test(t) || (SHARE_LABEL.test(t) && (links > 0.2 || t.length <= 60))) return 'share';
  if (SHARE_ANYWHERE.test(t) && links > 0.15 && t.length <= 160) return 'share';
  if (EDITOR_LABEL.test(t) && t.length <= 60 && !/[.!?。]\s*\S/.test(t)) return 'editor';
  return null;
}

/**
 * Whether a block is only a label ("Tags", "Leia também:", "Share"): what it labels is the next
 * block (a line of links), which goes with it.
 */
export function isLabelOnly(text: string): boolean {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 0 && t.length <= 40 && LABEL_ALONE.test(t);
}

/** Whether a heading's whole text names a related-stories (or most-read) section. */
export function isSectionHeading(text: string): boolean {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > 0 && t.length <= 80 && SECTION_HEADING.test(t);
}
