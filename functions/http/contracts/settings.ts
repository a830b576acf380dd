import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { captchaPolicySchema, CAPTCHA_KINDS } from '../../core/captcha/captcha.js';
import { targetPolicySchema } from '../../core/tenancy/tenants.js';
import { secretDomainsSchema } from '../../core/runs/tenant-secrets.js';

/** Contracts of captcha.encounters, captcha.policy.get, captcha.policy.put, secrets.list, secrets.put, secrets.delete, settings.target-policy.get, settings.target-policy.put. */

export const encountersQuery = pageQuery.extend({ run_id: z.string().max(64).optional() });
export const secretParams = z.strictObject({ name: z.string().regex(/^[A-Za-z][A-Za-z0-9_.-]{0,63}$/, 'secret names are 1-64 letters, digits, _ . -') });
export const secretBody = z.strictObject({
  value: z.string().min(1).max(8192),
  domains: secretDomainsSchema.describe('Hosts (and their subdomains) the secret may be filled on; fixed when saved'),
});
const encounterSchema = z.object({ id: z.string(), run_id: z.string(), url: z.string(), kind: z.enum(CAPTCHA_KINDS), detected_at: z.string(), action: z.enum(['stopped_run', 'skipped_page']), reason: z.string() });

export const contracts = defineContracts({
  'captcha.encounters': { summary: 'CAPTCHA and challenge pages runs met (never solved)', query: encountersQuery, success: { 200: { description: 'Encounters', schema: listOf(encounterSchema) } } },
  'captcha.policy.get': { summary: 'What a run does at a challenge: stop_run or skip_page', success: { 200: { description: 'The policy', schema: captchaPolicySchema } } },
  'captcha.policy.put': { summary: 'Set the challenge policy', body: captchaPolicySchema, requestExample: { on_challenge: 'skip_page' }, success: { 200: { description: 'The policy', schema: captchaPolicySchema } } },
  'secrets.list': { summary: 'Names and bound domains of tenant secrets usable by runbook fill steps (values never returned)', success: { 200: { description: 'Secret names', schema: listOf(z.object({ name: z.string(), domains: z.array(z.string()), updated_at: z.string() })) } } },
  'secrets.put': { summary: 'Store a tenant secret (encrypted), bound to the domains it may be filled on', params: secretParams, body: secretBody, requestExample: { value: 's3cret', domains: ['login.example.com'] }, success: { 200: { description: 'Stored', schema: z.object({ name: z.string(), domains: z.array(z.string()), updated_at: z.string() }) } } },
  'secrets.delete': { summary: 'Delete a tenant secret', params: secretParams, success: { 204: { description: 'Deleted' } }, errors: { 404: 'No such secret' } },
  'settings.target-policy.get': { summary: "The tenant's target policy", success: { 200: { description: 'The policy', schema: targetPolicySchema } } },
  'settings.target-policy.put': {
    summary: 'Set the target policy: open (any public site) or allowlist',
    body: targetPolicySchema,
    requestExample: { mode: 'allowlist', domains: ['example.com'] },
    success: { 200: { description: 'The policy', schema: targetPolicySchema } },
  },

});
