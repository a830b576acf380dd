import * as z from 'zod';
import { deliveryRecordSchema } from '../../core/webhooks/deliveries.js';

/**
 * A public response shape shared by several contract groups. Its own module, so a handler's
 * bundle carries only the shapes its group uses. Objects are closed (additionalProperties: false
 * in the document): a field the core's mapper adds without the contract fails the e2e check.
 */

/** `publicDelivery` (core/webhooks/deliveries.ts): the record without internals, the body parsed as `payload`. */
export const deliverySchema = deliveryRecordSchema
  .pick({ delivery_id: true, webhook_id: true, event: true, url: true, status: true, attempts: true, last_status_code: true, last_error: true, next_attempt_at: true, created_at: true, updated_at: true, attempt_log: true })
  .extend({ payload: z.unknown() });
