import * as z from 'zod';
import { searchRequestSchema } from './search-request.js';
import { SEARCH_PROVIDERS } from './types.js';

/** How long a search may take on the worker: the API stops waiting at 27 s. */
export const SEARCH_TASK_BUDGET_MS = 25_000;

/** A search as the API hands it to the runs worker: validated, with its provider chosen. */
export const searchTaskSchema = searchRequestSchema.extend({ provider: z.enum(SEARCH_PROVIDERS) });
export type SearchTaskRequest = z.infer<typeof searchTaskSchema>;
