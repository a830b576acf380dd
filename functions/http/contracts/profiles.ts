import * as z from 'zod';
import { defineContracts } from './contract.js';
import { idParam, listOf, pageQuery } from '../schemas/common.js';
import { profileBodySchema } from '../../core/profiles/browser-profiles.js';

/** Contracts of profiles.list, profiles.create, profiles.get, profiles.put, profiles.delete. */

export const profileIdParams = idParam('profile_id', 'prf');
const profileSchema = z.object({
  profile_id: z.string(),
  name: z.string(),
  viewport: z.object({ width: z.number().int(), height: z.number().int() }),
  device_scale_factor: z.number(),
  is_mobile: z.boolean(),
  locale: z.string(),
  timezone: z.string(),
  color_scheme: z.enum(['light', 'dark']),
  created_at: z.string(),
  updated_at: z.string(),
});

export const contracts = defineContracts({
  'profiles.list': {
    summary: 'Browser profiles (antidetect): rendering settings only; the User-Agent always identifies Gleaner',
    query: pageQuery,
    success: { 200: { description: 'Profiles', schema: listOf(profileSchema) } },
  },
  'profiles.create': {
    summary: 'Create a browser profile: viewport, scale, mobile, locale, time zone, colour scheme',
    body: profileBodySchema,
    requestExample: { name: 'Berlin phone', viewport: { width: 390, height: 844 }, is_mobile: true, locale: 'de-DE', timezone: 'Europe/Berlin' },
    success: { 201: { description: 'The profile', schema: profileSchema } },
  },
  'profiles.get': { summary: 'A browser profile', params: profileIdParams, success: { 200: { description: 'The profile', schema: profileSchema } }, errors: { 404: 'No such profile' } },
  'profiles.put': { summary: 'Replace a browser profile', params: profileIdParams, body: profileBodySchema, success: { 200: { description: 'The profile', schema: profileSchema } }, errors: { 404: 'No such profile' } },
  'profiles.delete': { summary: 'Delete a browser profile', params: profileIdParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such profile' } },
});
