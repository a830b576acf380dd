import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { boilerplateKind, isDateLine, isSectionHeading } from '../../../functions/core/content/boilerplate-text.js';

// Two signals of the select and clean phases (functions/core/content/related-sections.ts,
// boilerplate-text.ts): a block that opens with a related-stories heading is that section (its
// teasers can outscore a short story), and a post's own meta lines (date, "posted by", category)
// are about the story, not of it. Each case below leaked into the markdown before.

const md = (html: string) => parsePage(load(html), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
const para = (i: number, words = 'with commas, details and a few more words to count') => `<p>Paragraph ${i} of the story, long enough to be prose, ${words}.</p>`;
const teaser = (i: number, heading: string) =>
  `<article class="card"><a href="/post-${i}"><img src="/p${i}.jpg"></a><${heading}><a href="/post-${i}">Teaser title ${i}</a></${heading}>` +
  `<p>Teaser excerpt ${i}, which runs on for a while, with commas, like an article's first lines do, so it scores like prose, until it stops …</p></article>`;

describe('related-stories sections', () => {
  it.each([
    ['Você pode gostar...', 'h3'],
    ['Самые популярные диеты', 'h2'],
    ['También te puede interesar', 'h2'],
    ['Das könnte Sie auch interessieren', 'h2'],
    ['あわせて読みたい', 'h3'],
    ['猜你喜欢', 'h3'],
  ])('a short story beside six teasers under "%s" is the story alone', (heading, tag) => {
    // The teasers together hold more prose than the story: without the signal their wrapper wins.
    const html = `<body><div id="primary"><article class="post"><h1>Título da mensagem</h1>${para(1)}${para(2)}</article>` +
      `<section class="box"><${tag}>${heading}</${tag}>${[1, 2, 3, 4, 5, 6].map((i) => teaser(i, 'h4')).join('')}</section></div></body>`;
    const m = md(html);
    expect(m).toContain('Paragraph 2 of the story');
    expect(m).not.toMatch(/Teaser|excerpt/);
    expect(m).not.toContain(heading);
  });

  it('a section told only by its heading class (the heading itself is furniture) goes too', () => {
    const html = `<body><main>${para(1)}${para(2)}${para(3)}<div><h3 class="relatedpoststitle">Leitura</h3>${[1, 2, 3].map((i) => teaser(i, 'h4')).join('')}</div></main></body>`;
    const m = md(html);
    expect(m).toContain('Paragraph 3');
    expect(m).not.toContain('Teaser excerpt');
  });

  it('a page builder\'s posts widget after a "Latest News" heading widget of its own is that section', () => {
    // The heading and the cards are sibling widgets: no block opens with the heading. Each
    // excerpt outscores the story's paragraphs, which sit in widgets of their own.
    const widget = (inner: string) => `<div class="elementor-element"><div class="elementor-widget-container">${inner}</div></div>`;
    const html = `<body><div class="elementor"><div class="e-con">${widget(`<h1>Getting hurt at a gym</h1>`)}${widget(para(1))}${widget(para(2))}${widget(para(3))}</div>` +
      `<div class="e-con">${widget('<h2>Latest News</h2>')}${widget(`<div class="posts">${[1, 2, 3, 4].map((i) => teaser(i, 'h3')).join('')}</div>`)}</div></div></body>`;
    const m = md(html);
    expect(m).toContain('Paragraph 3 of the story');
    expect(m).not.toMatch(/Teaser|Latest News/);
  });

  it('keeps a wiki page\'s "See also" list after its heading, and cards after a heading that is no section name', () => {
    const seeAlso = `<body><main><h1>Portage</h1>${para(1)}${para(2)}<h2>See also</h2><ul>${[1, 2, 3].map((i) => `<li><a href="/wiki/P${i}">Page ${i}</a> — what page ${i} is about.</li>`).join('')}</ul></main></body>`;
    expect(md(seeAlso)).toContain('what page 3 is about');
    const cards = `<body><main><h1>Our work</h1>${para(1)}<div><h2>Case studies</h2></div><div>${[1, 2, 3].map((i) => teaser(i, 'h3')).join('')}</div></main></body>`;
    expect(md(cards)).toContain('Teaser excerpt 3');
  });

  it('keeps a story whose own title reads like a section heading, and a heading with prose and no links after it', () => {
    const story = `<body><article><h1>Most popular dog breeds</h1>${para(1)}${para(2)}<h2>Most read books</h2>${para(3)}${para(4)}</article></body>`;
    const m = md(story);
    expect(m).toContain('Most popular dog breeds');
    expect(m).toContain('Paragraph 4');
  });

  it('keeps a docs section about code comments (a "Comments" heading over paragraphs and code, no records)', () => {
    const html = `<body><main><h1>Python syntax</h1>${para(1)}${para(2)}<section><h2>Comments</h2><p>Comments in Python start with a hash sign, and the interpreter ignores the rest of the line, so they explain code.</p><pre><code># a comment\nx = 1</code></pre></section>${para(3)}</main></body>`;
    const m = md(html);
    expect(m).toContain('Comments in Python start with a hash sign');
    expect(m).toContain('# a comment');
  });

  it('heading phrases in many languages; not a heading that merely starts like one', () => {
    for (const h of ['Você também pode gostar', 'Most read stories', 'Las más leídas', 'Vous pourriez aussi aimer', 'Ti potrebbe interessare', 'Самые читаемые', '你可能喜欢', '人気の記事', 'Meest gelezen', 'Berita Terkait', 'Tin liên quan', 'Relaterade artiklar', 'Související články', 'مقالات ذات صلة', 'Latest News', 'Recent articles'])
      expect(isSectionHeading(h), h).toBe(true);
    for (const h of ['Most readers agree with the plan', 'Você pode gostar de saber que o parque reabre', 'Related work in other fields']) expect(isSectionHeading(h), h).toBe(false);
  });
});

describe('meta lines of the post', () => {
  it.each([
    ['05/10/2018 - Publicado por: Clarissa Borba - Categoria: Saúde - Tags: sad arrombamento veiculo', 'byline'],
    ['Posted on 12.03.2021 by admin', 'byline'],
    ['Опубликовано: 12.03.2021 | Рубрика: Город', 'byline'],
    ['segunda-feira, 22 de janeiro de 2018 às 0:13', 'dateline'],
    ['Dienstag, 5. März 2019, 14:30 Uhr', 'dateline'],
    ['2018年10月5日 10:30', 'dateline'],
    ['Yayınlanma: 12.03.2023 10:30 | Güncelleme: 12.03.2023 11:15', 'byline'],
    ['Baca juga: Sepuluh Halte Baru Dibangun di Jalan Utama', 'read-also'],
    ['Xem thêm: Giá xăng giảm lần thứ ba liên tiếp', 'read-also'],
    ['Läs också: Nya cykelbanor i centrum', 'read-also'],
    ['Paylaş: Facebook X WhatsApp', 'share'],
    ['Etiketler: bisiklet, sahil', 'tags'],
    ['Foto: Stadtwerke', 'credit'],
    ['Фото: пресс-служба мэрии', 'credit'],
    ['Tags\ncalendario stock car 2018, stock car brasil, stock car interlagos', 'tags'],
  ] as const)('%s -> %s', (text, kind) => expect(boilerplateKind(text, 0.6)).toBe(kind));

  it.each([
    'In 2018, 22 teams entered the race.',
    'The council met on 5 March 2019 and voted 12 to 3 for the plan.',
    'Population 2018: 12,345',
    '29 November 2018 | 20 January 2019',
    'Fotos: Die Ausstellung zeigt 40 Bilder. Sie ist bis Mai geöffnet.',
    'Por fim, o prefeito disse em 5 de março de 2019 que a obra acaba em junho. Os moradores aprovaram.',
  ])('leaves content alone: %s', (text) => {
    expect(boilerplateKind(text, 0)).toBeNull();
  });

  it('a dated line that names its author is left out either way', () => {
    expect(boilerplateKind('Publié le 3 mars 2021 par Jean Dupont', 0)).toMatch(/^(?:byline|dateline)$/);
  });

  it('a date line is a date with its weekday and time only', () => {
    expect(isDateLine('Tuesday, March 3, 2019')).toBe(true);
    expect(isDateLine('Tuesday, March 3, 2019, the day the new bridge opened to traffic')).toBe(false);
  });

  it('keeps dates that head the entries of a diary (several date lines are structure, not the post date)', () => {
    const entry = (d: string, i: number) => `<p><b>${d}</b></p>${para(i)}`;
    const m = md(`<body><article><h1>Our trip</h1>${entry('Monday, 3 June 2024', 1)}${entry('Tuesday, 4 June 2024', 2)}${entry('Wednesday, 5 June 2024', 3)}</article></body>`);
    expect(m).toContain('Monday, 3 June 2024');
    expect(m).toContain('Wednesday, 5 June 2024');
  });

  it("keeps a lone date amid the text (an event's time), drops one above the story", () => {
    const amid = md(`<body><article><h1>Concert in the park</h1>${para(1)}${para(2)}<p>Saturday, June 8, 2024, 19:00</p>${para(3)}${para(4)}</article></body>`);
    expect(amid).toContain('Saturday, June 8, 2024, 19:00');
    const above = md(`<body><article><h1>Concert in the park</h1><p>Saturday, June 8, 2024, 19:00</p>${para(1)}${para(2)}${para(3)}${para(4)}</article></body>`);
    expect(above).not.toContain('Saturday, June 8, 2024');
  });

  it('drops the date microdata, the meta line and a "Tags<br>" block from the story, keeps dates in tables and quoted posts', () => {
    const html = `<body><div itemprop="articleBody"><h1>Calendário 2018</h1><span itemprop="datePublished">segunda-feira, 22 de janeiro de 2018 às 0:13</span>` +
      `<small><b>05/10/2018</b> - Publicado por: Clarissa Borba - Categoria: <a href="/c/19">Saúde</a></small>${para(1)}${para(2)}` +
      `<table><tr><th>Etapa</th><th>Data</th></tr><tr><td>1a etapa</td><td>10 de março de 2018</td></tr><tr><td>2a etapa</td><td>8 de abril de 2018</td></tr></table>` +
      `<blockquote><p>Que corrida!</p>— Piloto (@piloto) <a href="https://social.example/s/1">November 18, 2019</a></blockquote>${para(3)}` +
      `<strong>Tags<br><a href="/tag/a">stock car brasil</a>, <a href="/tag/b">stock car interlagos</a>, <a href="/tag/c">calendario stock car 2018</a></strong></div></body>`;
    const m = md(html);
    expect(m).not.toContain('segunda-feira');
    expect(m).not.toContain('Publicado por');
    expect(m).not.toMatch(/Tags|stock car brasil/);
    expect(m).toContain('10 de março de 2018');
    expect(m).toContain('November 18, 2019');
    expect(m).toContain('Paragraph 3');
  });
});

describe('fine print named by class', () => {
  it('a disclaimer or disclosures block after the story is left out; the story stays', () => {
    for (const cls of ['cmp-richtext--disclaimer', 'disclosures', 'fine-print']) {
      const html = `<body><main><article><h1>Index funds</h1>${para(1)}${para(2)}${para(3)}</article>` +
        `<div class="${cls}"><p>All investing is subject to risk, including the possible loss of the money you invest; past performance is no guarantee of future results.</p></div></main></body>`;
      const m = md(html);
      expect(m, cls).toContain('Paragraph 3 of the story');
      expect(m, cls).not.toContain('subject to risk');
    }
  });
});

describe("a writer's bio closing the story", () => {
  const story = `<h1>Hosting trends</h1>${[1, 2, 3, 4, 5, 6].map((i) => para(i)).join('')}`;
  const bio = '<p>Rebecca Norris is a full-time freelance writer living near the coast. Over the past ten years she has covered travel, homes and food for magazines.</p>';
  const page = (close: string) => `<!doctype html><html><head><title>t</title></head><body><article>${story}${close}</article></body></html>`;

  it('after a headshot or an "About the author" / "By …" label, the bio and its headshot or label are left out', () => {
    for (const close of [
      `<div><img src="/rebecca.jpg" alt="Headshot of Rebecca Norris"></div>${bio}`,
      `<p>About the Author:</p>${bio}`,
      `<div class="box"><picture><img src="/r.jpg" alt=""></picture><div><strong>By <a href="/author/rebecca">Rebecca Norris</a></strong><br>${bio}</div></div>`,
    ]) {
      const out = md(page(close));
      expect(out).toContain('Paragraph 6 of the story');
      expect(out).not.toMatch(/freelance writer|About the Author|By \[Rebecca|rebecca\.jpg|r\.jpg/);
    }
  });

  it("a closing paragraph that says what something is, with no headshot or label before it, is the story's", () => {
    const out = md(page('<p>Anbernic is a company known for portable gaming consoles, and its newest handheld runs the emulators that matter most to the readers of this story.</p>'));
    expect(out).toContain('Anbernic is a company');
    // Nor a bio in the middle of the story (an interview's subject introduced).
    const middle = md(`<!doctype html><html><body><article><h1>Interview</h1><div><img src="/a.jpg" alt=""></div>${bio}${[1, 2, 3, 4].map((i) => para(i)).join('')}</article></body></html>`);
    expect(middle).toContain('freelance writer');
  });
});

describe('advertising labels inside the story', () => {
  it('"Advertisement", "ADVERTISEMENT - CONTINUE READING BELOW" and "Article Continues Below" between paragraphs are left out', () => {
    const out = md(`<article><h1>Understanding web design</h1>${para(1)}<div class="ad-label">Advertisement</div>${para(2)}<p>ADVERTISEMENT - CONTINUE READING BELOW</p>${para(3)}<p>Article Continues Below</p>${para(4)}${para(5)}</article>`);
    expect(out).toContain('Paragraph 5 of the story');
    expect(out).not.toMatch(/Advertisement|continue reading below|Continues Below/i);
  });
});
