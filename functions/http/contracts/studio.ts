import * as z from 'zod';
import { defineContracts } from './contract.js';
import { matchRequestSchema, previewRequestSchema } from '../../core/studio/preview-request.js';

/** Contracts of studio.preview, studio.match (Studio's selector picker, issue 29). */

const boxSchema = z.object({
  selector: z.string(),
  tag: z.string(),
  text: z.string(),
  x: z.number(),
  y: z.number(),
  w: z.number(),
  h: z.number(),
  group: z.object({ selector: z.string(), count: z.number().int() }).nullable(),
  item: z
    .object({
      selector: z.string(),
      count: z.number().int(),
      fields: z.array(z.object({ name: z.string(), selector: z.string(), attr: z.enum(['src', 'href']).optional(), sample: z.string() })),
    })
    .nullable()
    .optional()
    .describe('The repeated item this element is, or is inside (siblings of the same shape: a product card, a result row): its item selector, how many it matches, and fields proposed inside it (selectors relative to the item)'),
});
const previewSchema = z.looseObject({
  url: z.string(),
  final_url: z.string(),
  title: z.string(),
  width: z.number(),
  height: z.number(),
  full_page: z.boolean(),
  screenshot: z.string(),
  elements: z.array(boxSchema),
  html: z.string().nullable(),
  log: z.array(z.record(z.string(), z.unknown())),
  pages_done: z.number().int().optional().describe('Pages the preview fetched (billed as pages)'),
  truncated: z.boolean().optional().describe('Only part of the elements could be measured and checked in time (a very long page): those offered are from its top'),
});

export const contracts = defineContracts({
  'studio.preview': {
    summary: "Render a page in the service's browser (same egress guard, target policy and robots as a scrape): a screenshot and the boxes of its visible elements, each with a selector verified to match only it",
    description:
      'For pointing at elements in Studio. `steps` (optional) are run first to reach the state to pick from; only goto, click, fill, wait_for and scroll run, `url` replaces the first goto, and secrets are never filled. The page\'s scripts run only in the service\'s browser: the answer is a PNG and boxes, and `html` (scripts and styles emptied) for counting matches with POST /dashboard/api/studio/match.',
    body: previewRequestSchema,
    requestExample: { url: 'https://example.com/' },
    success: { 200: { description: 'Screenshot (base64 PNG), page size and element boxes', schema: previewSchema } },
    errors: {
      422: 'robots.txt disallows the page, it answered with a challenge (never solved), or a step failed on it',
      503: 'No browser is available',
      504: 'The page did not render in time',
    },
  },
  'studio.match': {
    summary: "How many elements of a preview's HTML a CSS selector matches (the engine's own selector engine), with the text of the first few",
    body: matchRequestSchema,
    requestExample: { html: '<ul><li class="item">A</li><li class="item">B</li></ul>', selector: 'li.item' },
    success: { 200: { description: 'Match count', schema: z.object({ selector: z.string(), count: z.number().int(), samples: z.array(z.string()) }) } },
    errors: { 422: '`selector_too_complex`: the selector is past the static limits, or counting it took longer than 5 s' },
  },
});
