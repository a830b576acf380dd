import type { Element } from 'domhandler';
import { cssPath, inOtherRegion, textOf } from './dom-helpers.js';
import { specPairs } from './document-specs.js';
import { mergeReadings } from './merge.js';
import { isoDate } from './meta.js';
import type { TypedInputs } from './product.js';
import { parseSalary } from './salary.js';
import { firstText, hasType, text, urlOf, values, type SchemaNode } from './schema-node.js';
import type { Candidate, JobPosting, JobPostingFields, Reading } from './types.js';

type Obj = Record<string, unknown>;
const obj = (v: unknown, node: SchemaNode): Obj | undefined => {
  const r = node.resolve ? node.resolve(v) : v;
  return r && typeof r === 'object' && !Array.isArray(r) ? (r as Obj) : undefined;
};
const stripHtml = (s: string) => s.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();

const RATE_UNITS: Record<string, string> = { HOUR: 'hourly', DAY: 'daily', WEEK: 'weekly', MONTH: 'monthly', YEAR: 'yearly' };

function readJobNode(node: SchemaNode, pageUrl: string): Reading<JobPostingFields> {
  const o = node.value;
  const r: Reading<JobPostingFields> = { fields: {}, warnings: [] };
  const c = <T>(value: T, key: string, confidence = 0.95): Candidate<T> => ({ value, source: node.source, path: node.join(node.path, key), confidence });
  const title = firstText(o, 'title') ?? firstText(o, 'name');
  if (title) r.fields.job_title = c(title, o.title ? 'title' : 'name');
  for (const [k, f] of [['datePosted', 'date_published'], ['validThrough', 'valid_through']] as const) {
    const iso = isoDate(firstText(o, k) ?? '');
    if (iso) r.fields[f] = c(iso, k);
  }
  const org = obj(values(o, 'hiringOrganization')[0], node);
  const orgName = org ? firstText(org, 'name') : text(values(o, 'hiringOrganization')[0]);
  if (orgName) r.fields.hiring_organization = c({ name: orgName }, 'hiringOrganization');
  const places = values(o, 'jobLocation').map((p) => obj(p, node)).filter((p): p is Obj => Boolean(p));
  const locs = places.map((p) => {
    const a = obj(values(p, 'address')[0], node);
    if (!a) return text(values(p, 'address')[0]) ?? firstText(p, 'name');
    return ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry'].map((k) => text(obj(values(a, k)[0], node) ?? values(a, k)[0])).filter(Boolean).join(', ');
  }).filter((x): x is string => Boolean(x));
  if (locs.length) r.fields.job_location = c({ raw: [...new Set(locs)].join('; ') }, 'jobLocation', 0.9);
  const type = values(o, 'employmentType').map(text).filter(Boolean).join(', ');
  if (type) r.fields.employment_type = c(type, 'employmentType');
  const remote = /telecommute/i.test(String(firstText(o, 'jobLocationType') ?? ''));
  if (remote) r.fields.remote_status = c(places.length ? 'Hybrid' : 'Remote', 'jobLocationType', places.length ? 0.6 : 0.9);
  const sal = obj(values(o, 'baseSalary')[0], node) ?? obj(values(o, 'estimatedSalary')[0], node);
  if (sal) {
    const q = obj(values(sal, 'value')[0], node);
    const currency = firstText(sal, 'currency');
    const min = q ? text(values(q, 'minValue')[0]) ?? text(values(q, 'value')[0]) : text(values(sal, 'value')[0]);
    const max = q ? text(values(q, 'maxValue')[0]) ?? text(values(q, 'value')[0]) : text(values(sal, 'value')[0]);
    const unit = q ? firstText(q, 'unitText') : firstText(sal, 'unitText');
    const fmt = (v?: string) => (v && Number.isFinite(Number(v)) && Number(v) > 0 ? Number(v).toFixed(2) : undefined);
    const bs = Object.fromEntries(Object.entries({ value_min: fmt(min), value_max: fmt(max), currency: currency?.toUpperCase(), rate_type: unit ? RATE_UNITS[unit.toUpperCase()] : undefined }).filter(([, v]) => v !== undefined));
    if (bs.value_min || bs.value_max) r.fields.base_salary = c(bs, 'baseSalary', 0.9);
  }
  const desc = firstText(o, 'description');
  if (desc) r.fields.description = c(stripHtml(desc), 'description', 0.9);
  const url = urlOf(values(o, 'url')[0], pageUrl);
  if (url) r.fields.url = c(url, 'url', 0.9);
  return r;
}

const LABELS: [keyof JobPostingFields, RegExp][] = [
  ['base_salary', /^(salary|salary range|pay|pay range|compensation|gehalt|vergütung|salaire|rémunération|salario|sueldo|stipendio|retribuzione|salaris|lön|wynagrodzenie)$/i],
  ['job_location', /^(location|job location|work location|standort|arbeitsort|lieu|localisation|ubicación|ubicacion|sede|locatie|plats|lokalizacja)$/i],
  ['employment_type', /^(employment type|job type|work type|contract type|type|anstellungsart|beschäftigungsart|vertragsart|type de contrat|type d'emploi|tipo de contrato|tipo de empleo|tipo di contratto|dienstverband|anställningsform|rodzaj umowy)$/i],
  ['hiring_organization', /^(company|employer|hiring organi[sz]ation|organi[sz]ation|unternehmen|arbeitgeber|entreprise|employeur|empresa|azienda|bedrijf|werkgever|företag|firma)$/i],
  ['description', /^(job description|description|about the (?:job|role)|stellenbeschreibung|description du poste|descripción del puesto|descrizione)$/i],
];
const CLASSES: [keyof JobPostingFields, string][] = [
  ['hiring_organization', '[class*="company" i], [class*="employer" i], [class*="hiring-org" i]'],
  ['job_location', '[class*="job-location" i], [class*="joblocation" i], [class*="location" i]'],
  ['employment_type', '[class*="employment-type" i], [class*="job-type" i], [class*="work-type" i], [class*="contract-type" i]'],
  ['base_salary', '[class*="salary" i], [class*="compensation" i]'],
];

/** The document's job posting: the h1, labelled rows and elements named for a field, a "Posted on" date. */
function readDocumentJob(inp: TypedInputs): Reading<JobPostingFields> & { looksLikeJob: boolean } {
  const { $, facts } = inp;
  const r: Reading<JobPostingFields> & { looksLikeJob: boolean } = { fields: {}, warnings: [], looksLikeJob: false };
  const c = <T>(value: T, el: Element, confidence: number): Candidate<T> => ({ value, source: 'document', path: cssPath($, el), confidence });
  const h1s = ($('h1').toArray() as Element[]).filter((el) => !inOtherRegion(el));
  if (h1s.length !== 1) return r;
  r.fields.job_title = c(textOf(h1s[0], 300), h1s[0], 0.75);
  const raw: Partial<Record<keyof JobPostingFields, { value: string; el: Element; conf: number }>> = {};
  for (const p of specPairs($, undefined)) {
    for (const [field, re] of LABELS) if (!raw[field] && re.test(p.label)) raw[field] = { value: p.value, el: p.el, conf: 0.75 };
  }
  for (const [field, sel] of CLASSES) {
    if (raw[field]) continue;
    const els = ($(sel).toArray() as Element[]).filter((el) => !inOtherRegion(el) && el.name !== 'body' && el.name !== 'main' && el.name !== 'html');
    const texts = [...new Set(els.map((el) => textOf(el, 200)).filter((t) => t && t.length <= 120))];
    if (texts.length === 1) raw[field] = { value: texts[0], el: els.find((el) => textOf(el, 200) === texts[0])!, conf: 0.7 };
    else if (texts.length > 1) r.warnings.push(`${field} left out: ${texts.length} different values on the page`);
  }
  if (raw.hiring_organization) r.fields.hiring_organization = c({ name: raw.hiring_organization.value }, raw.hiring_organization.el, raw.hiring_organization.conf);
  if (raw.job_location) r.fields.job_location = c({ raw: raw.job_location.value }, raw.job_location.el, raw.job_location.conf);
  if (raw.employment_type) r.fields.employment_type = c(raw.employment_type.value, raw.employment_type.el, raw.employment_type.conf);
  if (raw.base_salary && /\d/.test(raw.base_salary.value)) r.fields.base_salary = c(parseSalary(raw.base_salary.value, facts.lang), raw.base_salary.el, raw.base_salary.conf);
  if (raw.description) r.fields.description = c(raw.description.value, raw.description.el, 0.7);
  const loc = raw.job_location?.value ?? '';
  if (/\bremote\b|home ?office|télétravail|teletrabajo|remoto/i.test(`${loc} ${raw.employment_type?.value ?? ''}`)) r.fields.remote_status = c(/hybrid/i.test(loc) ? 'Hybrid' : 'Remote', (raw.job_location ?? raw.employment_type)!.el, 0.6);
  const dated = ($('time[datetime], [class*="date" i], [class*="posted" i]').toArray() as Element[]).filter((el) => !inOtherRegion(el)).slice(0, 10);
  for (const el of dated) {
    const t = el.attribs.datetime ?? textOf(el, 100).replace(/^(published|posted|veröffentlicht|publié|publicado|pubblicato)(\s+on|\s+am|\s+le|\s+el|\s+il)?[:\s]*/i, '');
    const iso = isoDate(t);
    if (iso) {
      r.fields.date_published = c(iso, el, 0.65);
      break;
    }
  }
  const signals = ['hiring_organization', 'job_location', 'employment_type', 'base_salary'].filter((k) => raw[k as keyof JobPostingFields]).length;
  r.looksLikeJob = signals >= 3 || (signals >= 2 && /\b(apply|bewerben|postuler|aplicar|candidati|solliciteer|job|position|stelle|emploi|empleo)\b/i.test(textOf($('body')[0] as Element, 20_000)));
  return r;
}

/** `job_posting`: schema.org JobPosting (the form Google asks job boards for), then the document. Null when the page is not one job. */
export function readJobPosting(inp: TypedInputs): JobPosting | null {
  const readings: Reading<JobPostingFields>[] = [];
  const warnings: string[] = [];
  let structured = false;
  for (const nodes of [inp.jsonLd, inp.microdata, inp.rdfa]) {
    const jobs = nodes.filter((n) => !n.nested && hasType(n.value, ['JobPosting']));
    if (jobs.length === 1) {
      structured = true;
      readings.push(readJobNode(jobs[0], inp.facts.url));
    } else if (jobs.length > 1) warnings.push(`${jobs[0].source}: ${jobs.length} job postings described; the page is a list, not one posting`);
  }
  const doc = readDocumentJob(inp);
  if (!structured && (!doc.looksLikeJob || warnings.length)) return null;
  readings.push(doc);
  const job = mergeReadings<JobPostingFields>(readings, warnings);
  if (!job.url) {
    job.url = inp.facts.url;
    job.provenance.url = { source: 'document', path: 'request URL', confidence: 1 };
  }
  return job;
}
