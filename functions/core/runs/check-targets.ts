import { AppError, badRequest, targetForbidden } from '../errors.js';
import { checkTargetPolicy } from '../governance/target-policy.js';
import type { EgressCheck } from '../governance/egress-check.js';
import type { Tenant } from '../tenancy/tenants.js';

// Apart from runs.ts so POST /v1/scrape, which checks its one URL, does not bundle every scraper.

/** Every URL a scraper input names (url, start_url, urls[]): checked before the run is accepted. */
export function targetUrls(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string' && /(^|_)url$/.test(k)) out.push(v);
    if (Array.isArray(v) && /(^|_)urls$/.test(k)) out.push(...v.filter((x): x is string => typeof x === 'string'));
  }
  return out;
}

/** Target policy (400 target_not_authorized) and egress (400 target_forbidden) before anything runs. */
export async function checkTargets(guard: EgressCheck, tenant: Tenant, urls: string[]): Promise<void> {
  for (const u of urls) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw badRequest(`${u} is not a valid URL`);
    }
    if (!/^https?:$/.test(parsed.protocol)) throw targetForbidden(`Only http and https targets are allowed (got ${parsed.protocol})`);
    checkTargetPolicy(tenant.target_policy, parsed);
    try {
      await guard.checkUrl(parsed);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA')
        throw new AppError(400, 'target_unresolvable', `The host ${parsed.hostname} could not be resolved (${code})`);
      throw e;
    }
  }
}
