import { api } from './pipeline/api.js';
import { contracts } from './contracts/audit.js';

/** A console page view: the pipeline's audit record is the whole effect (action console.view, resource the page). */
export const handler = api(contracts['console.view'], async (req) => {
  req.setResource(req.body.path);
  return { status: 204 };
});
