import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { webhookCreateSchema, webhookRecordSchema } from '../../core/webhooks/webhooks.js';

/** Contracts of webhooks.list, webhooks.create, webhooks.delete, webhooks.update, settings.webhooks.get. */

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `expected a ${prefix}_… id`);
export const webhookIdParams = z.strictObject({ webhook_id: id('whk') });
export const webhookUpdateBody = z.strictObject({ status: z.enum(['enabled', 'disabled']) });
const webhookSchema = webhookRecordSchema.omit({ tenant_id: true, secret_ciphertext: true });

export const contracts = defineContracts({
  'webhooks.list': { summary: 'Registered webhook endpoints (never their secrets)', query: pageQuery, success: { 200: { description: 'Webhooks', schema: listOf(webhookSchema) } } },
  'webhooks.create': {
    summary: 'Register an https endpoint; the whsec_ signing secret is returned once (Standard Webhooks)',
    body: webhookCreateSchema,
    requestExample: { url: 'https://hooks.example.com/gleaner', events: ['job.completed'] },
    success: { 201: { description: 'The webhook with its signing secret (shown once)', schema: webhookSchema.extend({ secret: z.string() }), headers: ['Location'] } },
  },
  'webhooks.delete': { summary: 'Remove a webhook endpoint', params: webhookIdParams, success: { 204: { description: 'Removed' } }, errors: { 404: 'No such webhook' } },
  'webhooks.update': {
    summary: 'Enable (e.g. after a 410 disabled it) or disable a webhook endpoint',
    params: webhookIdParams,
    body: webhookUpdateBody,
    requestExample: { status: 'enabled' },
    success: { 200: { description: 'The webhook', schema: webhookSchema } },
    errors: { 404: 'No such webhook' },
  },
  'settings.webhooks.get': {
    summary: "The tenant's job-webhook signing secret (signs deliveries to a job's or run's own webhook_url)",
    success: { 200: { description: 'The secret', schema: z.object({ signing_secret: z.string(), created_at: z.string() }), headers: ['Cache-Control'] } },
  },
});
