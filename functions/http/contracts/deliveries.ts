import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf, pageQuery } from '../schemas/common.js';
import { deliverySchema } from '../schemas/delivery.js';

/** Contracts of jobs.deliveries, runs.deliveries, webhooks.deliveries, webhooks.retry. */

const id = (prefix: string) => z.string().regex(new RegExp(`^${prefix}_[0-9a-z]{26}$`), `expected a ${prefix}_… id`);
export const jobIdParams = z.strictObject({ job_id: id('job') });
export const runIdParams = z.strictObject({ id: id('run') });
export const webhookIdParams = z.strictObject({ webhook_id: id('whk') });
export const deliveryParams = z.strictObject({ webhook_id: id('whk'), delivery_id: id('dlv') });

export const contracts = defineContracts({
  'jobs.deliveries': {
    summary: "Deliveries to the job's own webhook_url",
    params: jobIdParams,
    query: pageQuery,
    success: { 200: { description: 'Deliveries, newest first', schema: listOf(deliverySchema) } },
    errors: { 404: 'No such job' },
  },
  'runs.deliveries': {
    summary: "Deliveries to the run's own webhook_url",
    tag: 'runs',
    params: runIdParams,
    query: pageQuery,
    success: { 200: { description: 'Deliveries, newest first', schema: listOf(deliverySchema) } },
    errors: { 404: 'No such run' },
  },
  'webhooks.deliveries': {
    summary: "The endpoint's delivery log, newest first, with every attempt",
    params: webhookIdParams,
    query: pageQuery,
    success: { 200: { description: 'Deliveries', schema: listOf(deliverySchema) } },
    errors: { 404: 'No such webhook' },
  },
  'webhooks.retry': {
    summary: 'Send a finished delivery again (same webhook-id and body), once',
    params: deliveryParams,
    success: { 202: { description: 'Queued for one more attempt', schema: deliverySchema } },
    errors: { 404: 'No such webhook or delivery', 409: 'The webhook is disabled or the delivery is still pending' },
  },
});
