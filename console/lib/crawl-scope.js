// What a site crawl will cover, said under its start URL as it is typed: with Include empty, a
// crawl started inside a section stays in it (the service defaults Include to the start URL's
// folder, functions/core/scrapers/site-crawl.ts sectionInclude), and goes as deep as max_depth.

/** The start URL's folder as an include glob ("/site/**"), or null for the root (the whole site). */
export function sectionOf(startUrl) {
  let path;
  try {
    path = new URL(startUrl).pathname;
  } catch {
    return null;
  }
  const folder = path.slice(0, path.lastIndexOf('/') + 1);
  return folder.length > 1 && !/[*?[\]{}\\]/.test(folder) ? `${folder}**` : null;
}

/** The sentence for a start URL and the include lines typed (empty: the default applies). */
export function crawlScopeText(startUrl, include) {
  if (include.length) return `This crawl follows only the links that match Include (${include.join(', ')}).`;
  if (!startUrl) return 'With Include empty, a crawl stays in the start URL\'s folder (a start at /docs/ covers /docs/**); put /** in Include for the whole site.';
  const s = sectionOf(startUrl);
  return s
    ? `This crawl stays under ${s} (the start URL's folder, because Include is empty); put /** in Include for the whole site.`
    : 'This crawl starts at the site\'s root, so it may follow links anywhere on the site; set Include (such as /blog/**) to keep it in one section.';
}

/**
 * Under a crawl form's start URL (fields start_url and include in `host`), a live note saying
 * what the crawl will cover. Does nothing for other forms.
 */
export function attachCrawlScope(host) {
  const start = host.querySelector('[data-field="start_url"] input');
  const include = host.querySelector('[data-field="include"] textarea');
  if (!start || !include) return;
  const note = document.createElement('small');
  note.className = 'hint crawl-scope';
  note.id = `${start.id}-scope`;
  note.setAttribute('aria-live', 'polite');
  start.closest('[data-field]').append(note);
  const described = start.getAttribute('aria-describedby');
  start.setAttribute('aria-describedby', [described, note.id].filter(Boolean).join(' '));
  const show = () => {
    note.textContent = crawlScopeText(start.value.trim(), include.value.split('\n').map((x) => x.trim()).filter(Boolean));
  };
  start.addEventListener('input', show);
  include.addEventListener('input', show);
  show();
}
