import { api, lazyContract } from './pipeline/api.js';

/** A console page view: the pipeline's audit record is the whole effect (action console.view, resource the page). */
export const handler = api(lazyContract('console.view', () => import('./contracts/audit.js').then((m) => m.contracts['console.view'])), async (req) => {
  req.setResource(req.body.path);
  return { status: 204 };
});
