// Every console page view leaves an audit record (POST /dashboard/api/views: action console.view,
// resource the page, e.g. /runs/run_…): the audit log then shows what a person looked at, not only
// the calls the page made. Fire and forget: a failure never disturbs the page.
import { post } from './api.js';

export function recordView(path) {
  post('/dashboard/api/views', { path: String(path).slice(0, 300) }, { quiet: true }).catch(() => undefined);
}
