import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { load } from 'cheerio';
import { parsePage } from '../../../functions/core/engine/parse.js';
import { postFurniture } from '../../../functions/core/content/thread-posts.js';
import { boilerplateKind, isCardControl, isGridLine, isSectionHeading, isSignupPrompt, isStoreSectionHeading } from '../../../functions/core/content/boilerplate-text.js';
import { promptLine } from '../../../functions/core/content/clean.js';
import { scoreTree } from '../../../functions/core/content/score.js';
import type { DomNode } from '../../../functions/core/content/dom.js';

// The clean phase's word signal (functions/core/content/boilerplate-text.ts): share prompts,
// read-also teasers, tag lists, legal lines, editor credits and related-story headings inside the
// story container, told by their words in many languages where class names say nothing.

describe('boilerplateKind', () => {
  it.each([
    ['Leia também: Vacinação contra a gripe é prorrogada', 0.8, 'read-also'],
    ['À lire aussi : Ma brioche filante au beurre', 0.7, 'read-also'],
    ['Lesen Sie auch: Neuer Radweg am Ring', 0.7, 'read-also'],
    ['Читайте также: В городе открыли новый парк', 0.8, 'read-also'],
    ['相关阅读：地铁五号线首段预计明年底通车', 0.7, 'read-also'],
    ['Compartilhe: WhatsApp Facebook Twitter', 0.75, 'share'],
    ['Vous avez aimé cet article ? Partagez-le ! Facebook Pinterest', 0.3, 'share'],
    ['分享到：微信 微博 QQ空间', 0.7, 'share'],
    ['Tags: saúde, UBS, prefeitura', 0.6, 'tags'],
    ['Mots-clés : pain, levain, boulangerie', 0.6, 'tags'],
    ['标签：地铁 交通', 0.6, 'tags'],
    ['© 2024 Folha do Vale. Todos os direitos reservados.', 0, 'legal'],
    ['© RIPRODUZIONE RISERVATA', 0, 'legal'],
    ['版权声明：本文为江南日报原创稿件，版权所有，未经授权不得转载。', 0, 'legal'],
    ['ATENÇÃO: Comentários com textos ininteligíveis não serão aprovados pelo moderador.', 0, 'legal'],
    ['责任编辑：王芳', 0, 'editor'],
    ['By submitting your email, you agree to receive reminders and marketing communications.', 0, 'legal'],
    ['By providing a telephone number and submitting via form on our website, you are consenting to be contacted by SMS text message. Message & data rates may apply.', 0, 'legal'],
    ['Reply Help for more information. You can reply STOP to opt-out of further messaging.', 0, 'legal'],
    ['To make Medium work, we log user data. By using Medium, you agree to our Privacy Policy, including cookie policy.', 0.3, 'legal'],
  ] as const)('%s -> %s', (text, links, kind) => {
    expect(boilerplateKind(text, links)).toBe(kind);
  });

  it.each([
    ['Share prices rose sharply on Monday after the company reported higher profits than expected.', 0],
    ['Tags are small labels that readers use to find related posts, and we explain them below.', 0],
    ['The company updated its privacy policy and terms of use after the ruling, lawyers said.', 0],
    ['Related research from 2019 found the same effect in mice, the authors wrote.', 0],
    ['By using a standing desk for an hour a day, you reduce the time you sit by a fifth.', 0],
    ['Users must agree to the terms before the app lets them post, which is how most services work.', 0],
    ['Leia também o relatório completo, que descreve em detalhes os custos do programa e os prazos de cada fase das obras previstas até 2028 em todos os bairros da cidade, com mapas e tabelas de investimento por região, além de entrevistas com moradores, comerciantes, técnicos da prefeitura e especialistas em mobilidade urbana de três universidades, que analisaram as propostas apresentadas ao longo do último ano.', 0],
  ])('leaves prose alone: %s', (text, links) => {
    expect(boilerplateKind(text, links)).toBeNull();
  });
});

describe('isGridLine', () => {
  it("a grid's count, sort and load-more lines, in English and the stores' languages; not a sentence that counts something else", () => {
    for (const t of ['153 results', '1–30 of 153 products', 'Sort by: Featured', 'Il y a 37 produits.', 'There are 12 items', '54 more courses to show', '3 more to load']) expect(isGridLine(t), t).toBe(true);
    for (const t of ['Il y a 37 manières de voir', 'There are 12 reasons to go', 'Two more things to show you']) expect(isGridLine(t), t).toBe(false);
  });

  it("'Showing 1–12 of 48 results' and a load-more grid's progress in the stores' languages", () => {
    for (const t of ['Affichage de 1–12 sur 48 résultats', 'Mostrando 1–12 de 48 resultados', 'Visualizzazione di 1-12 di 48 risultati', 'Weergave van 1–12 van 48 resultaten', 'Du har sett 12 av 187 produkter', 'Has visto 12 de 248 artículos', "You've viewed 24 of 310 products", '47 communiqués trouvés · page 1 sur 5', '120 Ergebnisse gefunden']) expect(isGridLine(t), t).toBe(true);
    for (const t of ['You have seen 3 of 4 stories about it', 'Mostrando el camino de 1 a 2', '47 reasons found']) expect(isGridLine(t), t).toBe(false);
  });

  it("a marketplace's count with its adjective and its ads ('(4,870 relevant results, with Ads)')", () => {
    for (const t of ['(4,870 relevant results, with Ads)', '312 matching products', '48 available items']) expect(isGridLine(t), t).toBe(true);
    for (const t of ['4,870 relevant results show how to search', '312 matching socks for every foot']) expect(isGridLine(t), t).toBe(false);
  });
});

describe('isSectionHeading: a board\'s furniture under a thread', () => {
  it('names who is online, who is browsing the thread and the posting permissions, in the boards\' languages; not a sentence that starts so', () => {
    for (const t of ['Who is online', 'Users Browsing this Thread', 'Posting Permissions', 'Wer ist online?', 'Qui est en ligne ?', 'Chi c’è in linea']) expect(isSectionHeading(t), t).toBe(true);
    for (const t of ['Who is online right now at our club', 'Posting permissions for new members explained']) expect(isSectionHeading(t), t).toBe(false);
  });

  it('with the count in the heading (Invision), and the similar threads in the boards\' languages', () => {
    for (const t of ['Wer ist online 0 Mitglieder sehen sich diese Seite an', 'Who is online 3 members are viewing this page', 'Similar Threads', 'Discussions similaires', 'Ähnliche Themen', 'Discusiones similares']) expect(isSectionHeading(t), t).toBe(true);
  });
});

describe("a thread's prompt to log in before replying is a sign-up prompt", () => {
  it.each([
    'You must log in or register to reply here.',
    'Vous devez vous connecter ou vous inscrire pour répondre ici.',
    'Du musst dich anmelden oder registrieren, um hier zu antworten.',
    'Inicia sesión para dejar un comentario',
    'Accedi o registrati per rispondere',
    'Faça login para comentar',
    'Log in or sign up to leave a comment',
  ])('%s', (t) => expect(boilerplateKind(t, 0)).toBe('signup'));
  it.each([
    'I had to log in to the router to reset it before the reply came back.',
    'Register the handler before you post the first message.',
  ])('not %s', (t) => expect(boilerplateKind(t, 0)).not.toBe('signup'));
});

describe('isSignupPrompt', () => {
  it.each([
    'Subscribe to our newsletter for updates and special promotions',
    'Join Our Genius Newsletter',
    'Get the latest articles, inspiring how-to’s, and educational workbooks delivered to your inbox.',
    'Want more from NBC Select? Sign up for our newsletter, The Selection, and shop smarter.',
    'Sign up to our weekly round up and get all the best threads sent straight to your inbox!',
    'Join our mailing list! Get a newsletter when an episode is published.',
    'Was this newsletter forwarded to you? Sign up to get it in your inbox.',
    'Like this article? Subscribe to our blog and have great financial insights delivered to your inbox weekly.',
  ])('%s', (t) => expect(isSignupPrompt(t)).toBe(true));
  it.each([
    'Twelve people signed up for my newsletter in the past week, excited enough to give me their email address.',
    'I also identified 28 newsletters, a small subset of the newsletters I subscribe to, as the test set.',
    'For a newsletter with 1,193 subscribers and an annual sales revenue over $20k, these are legitimately strong numbers.',
    'Subscribe & download the episode to your device: Apple Podcasts | Spotify',
    'The #1 newsletter for the trades.',
  ])('not %s', (t) => expect(isSignupPrompt(t)).toBe(false));
  it('is a boilerplate kind, and "Share this story on" a share prompt', () => {
    expect(boilerplateKind('Subscribe to the EnergySage Newsletter!', 0)).toBe('signup');
    expect(boilerplateKind('Share this story on', 0)).toBe('share');
    expect(boilerplateKind('Share via', 0)).toBe('share');
  });
});

describe('sign-up and share prompts leave the content', () => {
  const para = (i: number) => `<p>Paragraph ${i} of the story, long enough to be prose, with commas, details and a few more words to count.</p>`;
  it('inside a story: the newsletter box\'s heading and its line, and a "Share this story on" heading', () => {
    const html = `<body><article class="post">${para(1)}${para(2)}${para(3)}<h3>Share this story on</h3><h2>Join Our Newsletter</h2><p>Get the latest recipes and tips delivered straight to your inbox.</p>${para(4)}</article></body>`;
    const m = parsePage(load(html), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
    expect(m).not.toMatch(/Share this story|Join Our Newsletter|to your inbox/);
    expect(m).toContain('Paragraph 4');
  });
  it('on a landing page: the sign-up line and the share heading, not a card that says "share"', () => {
    const section = (t: string, d: string) => `<section class="feature"><h2>${t}</h2><p>${d}</p></section>`;
    const card = (t: string, d: string) => `<li><a href="/templates/${t}"><img src="/${t}.png" alt=""></a><a href="/templates/${t}">${t}</a> <span>${d}</span></li>`;
    const html = `<!doctype html><html><head><title>Plan it</title></head><body><header><nav><a href="/">Home</a> <a href="/pricing">Pricing</a></nav></header><main>
      <section class="hero"><h1>Plan everything in one place</h1><p>Tasks, projects and calendars for your whole team.</p></section>
      ${section('Boards', 'Move work across columns and see what is blocked at a glance.')}
      ${section('Calendars', 'Every due date in one view, shared with the people who need it.')}
      ${section('Reminders', 'A nudge at the right time, on the phone or the desktop.')}
      ${section('Integrations', 'Connect the mail, chat and storage tools you already use.')}
      <section class="templates"><h2>Templates</h2><ul>${card('Student project', 'Share this project with your classmates and make your way towards an A.')}${card('Team roadmap', 'Plan the quarter with your team, one lane per goal.')}${card('Move house', 'Every box, every call and every key in one list.')}</ul></section>
      <section class="news"><h3>Share this page</h3><p>Subscribe to our newsletter for product news and tips.</p></section>
    </main><footer><a href="/privacy">Privacy</a></footer></body></html>`;
    const m = parsePage(load(html), 'https://plan.example/', { text: false, links: false, metadata: false }).markdown;
    expect(m).toContain('Connect the mail, chat');
    expect(m).toContain('Share this project with your classmates');
    expect(m).not.toMatch(/Share this page|Subscribe to our newsletter/);
  });
});

describe('promptLine (a page read section by section)', () => {
  const judge = (html: string): boolean[] => {
    const $ = load(`<body><ul>${html}</ul></body>`);
    const body = $('body').get(0) as unknown as DomNode;
    const scored = scoreTree(body, { classRules: false });
    return $('li').toArray().map((li) => promptLine(li as unknown as DomNode, scored));
  };
  it('a line of share links and a sign-up line are prompts; a card with its picture that says "share" is not', () => {
    expect(judge('<li>Share this: <a href="/x">X</a> <a href="/f">Facebook</a></li><li>Subscribe to our newsletter for tips.</li>')).toEqual([true, true]);
    expect(judge('<li><a href="/t/s"><img src="/s.png" alt=""></a><a href="/t/s">Student project</a> <span>Share this project with your classmates and make your way towards an A.</span></li>')).toEqual([false]);
    expect(judge('<li><a href="/t/s">Student project</a> <span>Share this project with your classmates and make your way towards an A.</span></li>')).toEqual([true]);
  });
});

describe('isSectionHeading', () => {
  it.each(['You may also like...', 'Noticias relacionadas', 'Vous aimerez aussi', 'Potrebbe interessarti anche', 'Mais lidas', '関連記事', 'Recommended articles', 'Recommended for you', 'Other Posts You May Enjoy', 'Other related articles...', 'Popular articles', 'You may be interested in the following topics as well', 'Trending Stories', 'Trending topics', 'Trending today', 'Related Articles', 'Related reads', 'Editor’s picks', 'Keep reading', 'From the blog', 'Latest from our blog', 'Similar articles', 'People also read'])('%s', (h) => expect(isSectionHeading(h)).toBe(true));
  it.each(['Criticas de los comerciantes', 'Related work in other fields', 'How we tested', 'Trending technologies in 2025'])('not %s', (h) => expect(isSectionHeading(h)).toBe(false));
});

describe('a label alone takes the line of links it labels', () => {
  it('drops "Tags" and the links after it, and keeps the story', () => {
    const para = (i: number) => `<p>Paragraph ${i} of the story, long enough to be prose, with commas, details and a few more words to count.</p>`;
    const html = `<body><div class="materia">${para(1)}${para(2)}${para(3)}<div>Tags</div><div><a href="/t/a">alpha</a>, <a href="/t/b">beta</a>, <a href="/t/c">gamma</a>, <a href="/t/d">delta</a></div>${para(4)}</div></body>`;
    const m = parsePage(load(html), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
    expect(m).not.toMatch(/Tags|alpha|gamma/);
    expect(m).toContain('Paragraph 4');
  });
});

// Saved pages whose boilerplate sits inside the story with native-language class names (or none):
// without the word signal each of them leaks it into the markdown.
describe('saved pages', () => {
  const page = (f: string) => readFileSync(new URL(`../../fixtures/content-corpus/${f}`, import.meta.url), 'utf8');
  const md = (f: string) => parsePage(load(page(f)), 'https://example.com/a', { text: false, links: false, metadata: false }).markdown;
  it.each([
    ['news-pt.html', ['Todos os direitos reservados', 'ATENÇÃO: Comentários', 'Leia também', 'Compartilhe'], 'avaliar em março'],
    ['blog-fr.html', ['Tous droits réservés', 'À lire aussi', 'Partager', 'Vous aimerez aussi', 'Focaccia'], 'la mie sera collante'],
    ['news-es.html', ['Todos los derechos reservados', 'Etiquetas', 'Noticias relacionadas', 'La línea 3 del metro'], 'por tramos'],
    ['news-zh.html', ['版权声明', '相关阅读', '责任编辑'], '引导乘客'],
    ['news-it.html', ['RIPRODUZIONE RISERVATA', 'Leggi anche', 'Potrebbe interessarti'], 'sportello automatico'],
  ])('%s: the boilerplate is out, the story is whole', (file, out, last) => {
    const m = md(file);
    for (const s of out) expect(m).not.toContain(s);
    expect(m).toContain(last);
  });
});

describe('isCardControl: a loading placeholder', () => {
  it('says what is loading before its ellipsis; a sentence about loading is no placeholder', () => {
    for (const t of ['Loading…', 'Loading customer stories…', 'Chargement des avis...', 'Cargando productos…']) expect(isCardControl(t), t).toBe(true);
    for (const t of ['Loading the truck took three hours…', 'Loading dock']) expect(isCardControl(t), t).toBe(false);
  });
});

describe("a store's lines in its languages", () => {
  it("'Showing 8 of 186 products' (one number, not a range) is a count line", () => {
    for (const t of ['Mostrando 8 de 186 produtos', 'Showing 24 of 310 results', 'Affichage de 12 sur 48 produits', 'Showing 8 of 186']) expect(isGridLine(t), t).toBe(true);
    for (const t of ['Showing 8 of 186 ways to cook rice', 'Mostrando 8 de los mejores platos']) expect(isGridLine(t), t).toBe(false);
  });

  it('newsletter sign-ups in the stores\' languages are sign-up prompts; a sentence about e-mail is not', () => {
    for (const t of ['Cadastre-se e ganhe 10% de desconto na primeira compra', 'Abonnez-vous à notre newsletter', 'Receitas, ofertas e novidades no seu e-mail', 'Sign up and get 15% off your first order', 'Schrijf je in voor de nieuwsbrief']) expect(isSignupPrompt(t), t).toBe(true);
    for (const t of ['Send us an e-mail with your order number', 'Cadastre o endereço de entrega antes de pagar']) expect(isSignupPrompt(t), t).toBe(false);
  });

  it("'Quem viu panelas, levou também' heads a store's rail", () => {
    for (const t of ['Quem viu panelas, levou também', 'Quem viu este produto também viu']) expect(isStoreSectionHeading(t), t).toBe(true);
    expect(isStoreSectionHeading('Quem somos')).toBe(false);
  });

  it("recently viewed rails and sponsored strips in the stores' languages head a store's rail", () => {
    for (const t of ['Ostatnio oglądane', 'Vistos recientemente', 'Visti di recente', 'Onlangs bekeken', 'Produits consultés récemment', 'Polecane Sponsorowane', 'Sponsored', 'Productos patrocinados', '最近チェックした商品']) expect(isStoreSectionHeading(t), t).toBe(true);
    for (const t of ['Ostatnio oglądane filmy o gotowaniu w domu i w ogrodzie', 'How sponsored research shaped the field of coffee roasting']) expect(isStoreSectionHeading(t), t).toBe(false);
  });

  it("'Sign in to answer' under a question is a prompt to log in", () => {
    for (const t of ['Sign in to answer', 'Log in to answer this question', 'Sign in to comment']) expect(isSignupPrompt(t), t).toBe(true);
    expect(isSignupPrompt('Sign in to the portal and answer the survey about your experience of the new build')).toBe(false);
  });

  it("a thread's mark of the accepted answer is a post's furniture; a post that says so in a sentence is not", () => {
    const block = (t: string) => load(`<div>${t}</div>`)('div').get(0) as unknown as DomNode;
    for (const t of ['Answer accepted by question author', 'Accepted Solution', 'View solution in original post', 'Best answer']) expect(postFurniture(block(t)), t).toBe(true);
    expect(postFurniture(block('I accepted the answer above because it solved my problem'))).toBe(false);
  });

  it("counts with thousands set apart by spaces ('Vous avez vu 9 produits sur 1 248', 'Visar 12 av 2 345 artiklar')", () => {
    for (const t of ['Vous avez vu 9 produits sur 1 248', 'Visar 12 av 2 345 artiklar', '1 248 résultats', 'Mostrando 24 de 1 204 productos']) expect(isGridLine(t), t).toBe(true);
    for (const t of ['Visar vägen till 12 av 40 stugor', '1 248 raisons de venir']) expect(isGridLine(t), t).toBe(false);
  });

  it("'Dans la même catégorie' and its kin head a rail of other products", () => {
    for (const t of ['Dans la même catégorie', '16 autres produits dans la même catégorie :', 'More from the same collection', 'In der gleichen Kategorie', 'En la misma categoría']) expect(isStoreSectionHeading(t), t).toBe(true);
    expect(isStoreSectionHeading('Dans la même catégorie, la théière en fonte reste la plus robuste')).toBe(false);
  });

  it("'From The Same Store' and a Korean store's rails head rails of other products", () => {
    for (const t of ['From The Same Store', 'More items from the same seller', '다른 고객이 함께 본 상품', '최근본상품']) expect(isStoreSectionHeading(t), t).toBe(true);
    expect(isStoreSectionHeading('From the same store we also bought a kettle')).toBe(false);
  });

  it("counts in Dutch, Russian and Turkish ('Je hebt 8 van de 12.384 resultaten bekeken', '22 418 товаров', '10.000+ ürün')", () => {
    for (const t of ['Je hebt 8 van de 12.384 resultaten bekeken', '22 418 товаров', '10.000+ ürün']) expect(isGridLine(t), t).toBe(true);
    expect(isGridLine('22 418 товаров продано за неделю в нашем магазине')).toBe(false);
  });
});
