import { api, lazyContract } from './pipeline/api.js';
import { allowedMethods } from './allowed-methods.js';
import { routes } from '../routes.js';
import { AppError } from '../core/errors.js';

/**
 * The catch-all route: a path no row serves is a JSON 404; a path some row serves, asked with
 * another method, is a 405 with `Allow` (RFC 9110 §15.5.6). Both in the API error shape.
 */
export const handler = api(lazyContract('fallback', () => import('./contracts/service.js').then((m) => m.contracts.fallback)), async (req) => {
  const path = req.path;
  const allow = allowedMethods(routes, path);
  if (allow.length) {
    const method = req.method;
    throw new AppError(405, 'method_not_allowed', `${method} is not allowed on ${path}; use ${allow.filter((m) => m !== 'HEAD').join(', ')}`, undefined, { allow: allow.join(', ') });
  }
  throw new AppError(404, 'not_found', `No route for this path; see ${req.origin}/docs`);
});
