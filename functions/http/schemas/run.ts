import { publicRunSchema } from '../../core/runs/run-record.js';

/**
 * A public response shape shared by several contract groups. Its own module, so a handler's
 * bundle carries only the shapes its group uses. Objects are closed (additionalProperties: false
 * in the document): a field the core's mapper adds without the contract fails the e2e check.
 */

/** `publicRun` (core/runs/run-record.ts): picked from the run record's own schema, so the two cannot drift. */
export const runSchema = publicRunSchema;
