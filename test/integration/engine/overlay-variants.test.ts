import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeHarness, type Harness } from './harness.js';

// Consent walls and sign-up modals written apart from the ones the detector was built on
// (page-overlays.test.ts): other languages, other layouts, other markup. Each page has one
// sentence of content that must stay and the wall's sentences that must go.
const CONTENT = 'The old mill ground flour for three villages until the flood of 1952.';
const shell = (lang: string, body: string, head = '') =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><title>Mill</title>${head}</head><body style="margin:0;font:16px sans-serif">` +
  `<header style="position:sticky;top:0;background:#eee;padding:8px"><a href="/">Home</a> <a href="/about">About</a></header>` +
  `<main style="min-height:1600px;padding:20px"><article><h1>The mill</h1><p>${CONTENT}</p><p>Its wheel was rebuilt twice.</p></article></main>` +
  `<footer><a href="/privacy">Privacy</a></footer>${body}</body></html>`;

const WALLS: Record<string, { html: string; wall: string[] }> = {
  'top-bar-en': {
    html: shell('en', `<div style="position:fixed;top:0;left:0;width:100%;background:#222;color:#fff;padding:14px;z-index:1000">This website uses cookies to improve your experience. By continuing to browse you agree to our use of cookies. <a href="/privacy">Learn more</a> <button>Got it</button></div>`),
    wall: ['By continuing to browse you agree'],
  },
  'bottom-sheet-it': {
    html: shell('it', `<section class="sheet" style="position:fixed;bottom:0;left:0;right:0;height:35vh;background:#fff;box-shadow:0 -2px 8px #0004;z-index:50;padding:16px"><p>Questo sito utilizza cookie tecnici e di profilazione, anche di terze parti. Chiudendo questo banner acconsenti all'uso dei cookie.</p><button>Accetta tutti</button> <button>Rifiuta</button></section>`),
    wall: ['Questo sito utilizza cookie tecnici', 'Accetta tutti'],
  },
  'dialog-element-nl': {
    html: shell('nl', `<dialog open style="position:fixed;top:20%;z-index:10;width:60%"><h2>Wij gebruiken cookies</h2><p>Met uw toestemming gebruiken wij en onze partners cookies om advertenties te personaliseren.</p><button>Alles accepteren</button><button>Instellingen</button></dialog>`),
    wall: ['Wij gebruiken cookies', 'Alles accepteren'],
  },
  'pl-center-modal-with-lock': {
    html: shell('pl', `<div style="position:fixed;inset:0;background:#0008;z-index:999"></div><div role="dialog" style="position:fixed;top:25%;left:20%;width:60%;background:#fff;z-index:1000;padding:20px"><p>Używamy plików cookie i przetwarzamy dane osobowe. Kliknij „Akceptuję”, aby wyrazić zgodę.</p><button>Akceptuję</button> <button>Ustawienia</button></div>`, '<style>body{overflow:hidden}</style>'),
    wall: ['Używamy plików cookie', 'Akceptuję'],
  },
  'pt-br-banner-class-names': {
    html: shell('pt-BR', `<div class="lgpd-aviso" style="position:fixed;bottom:16px;left:16px;max-width:420px;background:#fff;border:1px solid #ccc;z-index:2000;padding:12px"><p>Nós usamos cookies para melhorar sua experiência. Ao continuar, você concorda com a nossa Política de Privacidade.</p><button>Aceitar</button></div>`),
    wall: ['Nós usamos cookies para melhorar', 'Aceitar'],
  },
  'account-wall-en': {
    html: shell('en', `<div style="position:fixed;inset:0;background:rgba(255,255,255,.9);z-index:300;display:flex;align-items:center;justify-content:center"><div style="background:#fff;border:1px solid #999;padding:30px;width:50%"><h2>Create a free account to keep reading</h2><p>Sign up in seconds to read unlimited stories.</p><button>Sign up</button> <a href="/login">Log in</a></div></div>`, '<style>html{overflow:hidden}</style>'),
    wall: ['Create a free account to keep reading', 'read unlimited stories'],
  },
  'sv-late-injected': {
    html: shell('sv', `<script>setTimeout(() => { const d = document.createElement('div'); d.id = 'samtycke'; d.style.cssText = 'position:fixed;bottom:0;left:0;right:0;background:#113;color:#fff;padding:16px;z-index:9999'; d.innerHTML = '<p>Vi använder kakor för att ge dig en bättre upplevelse och för att visa anpassade annonser från våra partners.</p><button>Godkänn alla</button> <button>Neka</button>'; document.body.append(d); }, 300);</script>`),
    wall: ['Vi använder kakor', 'Godkänn alla'],
  },
};

let server: Server;
let base: string;
let h: Harness;
beforeAll(async () => {
  server = createServer((req, res) => {
    const name = (req.url ?? '/').slice(1);
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const w = WALLS[name];
    if (!w) return void res.writeHead(404).end('no');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(w.html);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  h = makeHarness({ fixturePort: port });
});
afterAll(async () => {
  await h?.close();
  await new Promise((r) => server?.close(r));
});

describe('overlays never seen by the detector', () => {
  it.each(Object.keys(WALLS))('%s: content stays, the wall goes (browser engine, whole page)', async (name) => {
    const page = await h.engine.scrapePage(`${base}/${name}`, { engine: 'browser', formats: ['markdown'], only_main_content: false, wait_for: name.includes('late') ? '#samtycke' : undefined });
    expect(page.markdown).toContain(CONTENT);
    expect(page.markdown).toMatch(/Home[\s\S]*Privacy/);
    for (const t of WALLS[name]!.wall) expect(page.markdown).not.toContain(t);
  });
});
