import type { Contract } from './contract.js';
import { contracts as service } from './service.js';
import { contracts as consoleApi } from './console.js';
import { contracts as runs } from './runs.js';
import { contracts as queries } from './queries.js';
import { contracts as jobs } from './jobs.js';

/**
 * Every route's contract by route id. Only the OpenAPI builder and tests import this: a handler
 * imports its own group module, so no Lambda bundle carries the schemas of all routes.
 */
export const allContracts: Record<string, Contract> = { ...service, ...consoleApi, ...runs, ...queries, ...jobs };
