// What this deployment can do (GET /dashboard/api/session `features`), read once per console
// load: options that cannot work are disabled with the reason rather than failing on submit.
import { get } from './api.js';

let pending = null;

/** { model_extraction: { available, reason } }; when it cannot be read, everything counts as available (the service still refuses). */
export function features() {
  pending ??= get('/dashboard/api/session', {}, { quiet: true })
    .then((s) => s.features ?? {})
    .catch(() => {
      pending = null;
      return {};
    });
  return pending;
}

/** Model extraction: { available: boolean, reason: string|null }. */
export const modelExtraction = async () => (await features()).model_extraction ?? { available: true, reason: null };
