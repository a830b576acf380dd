import type { z } from 'zod';
import { serviceInfoSchema, auditListQuery } from './foundation.js';
import { consoleDocs } from './console.js';
import { datasetsQuery } from '../../core/console/overview.js';
import { profileBodySchema } from '../../core/profiles/browser-profiles.js';
import { pageQuery, idParam } from './common.js';

export const profileIdParams = idParam('profile_id', 'prf');
import { queriesDocs } from './queries.js';
import { runsDocs } from './runs.js';
import { jobsDocs } from './jobs.js';

export interface RouteDoc {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  response?: z.ZodType;
  /** Status of the success response (default 200). */
  status?: number;
}

/**
 * Request schemas per route id: the handlers validate with these and the OpenAPI document is
 * generated from them, so the two cannot drift. A test checks every route has an entry.
 */
export const docs: Record<string, RouteDoc> = {
  'info.get': { summary: 'Service info document (no key needed)', response: serviceInfoSchema },
  'openapi.get': { summary: 'This OpenAPI 3.1 document' },
  'docs.get': { summary: 'Human-readable API reference (HTML)' },
  'tenant.get': { summary: "The calling key's tenant: billing status, limits, target policy, usage" },
  'mcp.post': { summary: 'MCP agent endpoint (JSON-RPC over Streamable HTTP, stateless); call the tool get_started first' },
  'datasets.list': { summary: 'Collected data: succeeded runs with items (kind=runs) or stored result files (kind=files)', query: datasetsQuery },
  'monitoring.get': { summary: 'Last 24 h of runs, queries and challenges; recent failures; usage this month against the plan' },
  'social.get': { summary: "Each social source's connection state and use by queries in the last 7 days; quotas (YouTube units today, Instagram hashtags this week), the Graph API version and its retirement warnings" },
  'studio.get': { summary: 'Runbook editor catalogue: JSON Schema of every step action, and the runbooks' },
  'profiles.list': { summary: 'Browser profiles (antidetect): rendering settings only; the User-Agent always identifies Gleaner', query: pageQuery },
  'profiles.create': { summary: 'Create a browser profile: viewport, scale, mobile, locale, time zone, colour scheme', body: profileBodySchema, status: 201 },
  'profiles.get': { summary: 'A browser profile', params: profileIdParams },
  'profiles.put': { summary: 'Replace a browser profile', params: profileIdParams, body: profileBodySchema },
  'profiles.delete': { summary: 'Delete a browser profile', params: profileIdParams, status: 204 },
  fallback: { summary: 'Any unknown path: 404 not_found in the API error shape' },
  'audit.list': { summary: "The tenant's audit records, newest first", query: auditListQuery },
  ...consoleDocs,
  ...runsDocs,
  ...queriesDocs,
  ...jobsDocs,
};
