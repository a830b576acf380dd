import { runSimulation } from '@cloud-copilot/iam-simulate';
import { ACCOUNT, type FunctionRole, type Statement } from './iam-template.js';
import type { IamRequest } from './iam-requests.js';

export interface Denial { fn: string; request: IamRequest; result: string }

const list = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
const glob = (pattern: string, value: string, caseInsensitive = false) =>
  new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\?/g, '.')).join('.*')}$`, caseInsensitive ? 'i' : '').test(value);

/**
 * Evaluates recorded requests against function roles with iam-simulate (wildcards, conditions,
 * explicit denies) and remembers which granted action/resource pairs some request used, so grants
 * that no test exercised can be reported.
 */
export class IamEvaluator {
  readonly denials: Denial[] = [];
  private readonly roles = new Map<string, FunctionRole>();
  private readonly used = new Map<string, Set<string>>();

  /** Every (statement, action pattern) of the role as `action on resources [if condition]`. */
  private grants(role: FunctionRole): string[] {
    return role.statements
      .filter((s) => s.Effect === 'Allow')
      .flatMap((s) => list(s.Action).map((a) => grantLabel(a, s)));
  }

  constructor(private readonly resourcePolicy: (arn: string) => { Version: string; Statement: unknown[] } | undefined = () => undefined) {}

  async check(fn: string, role: FunctionRole, requests: IamRequest[]): Promise<Denial[]> {
    this.roles.set(fn, role);
    const used = this.used.get(fn) ?? new Set<string>();
    this.used.set(fn, used);
    const out: Denial[] = [];
    for (const request of requests) {
      const r = await runSimulation(
        {
          identityPolicies: [{ name: 'execution-role', policy: { Version: '2012-10-17', Statement: role.statements } }],
          serviceControlPolicies: [],
          resourceControlPolicies: [],
          resourcePolicy: this.resourcePolicy(request.resource) as any,
          request: {
            principal: role.roleArn,
            action: request.action,
            resource: { resource: request.resource, accountId: request.resource.startsWith('arn:aws:s3:::') ? ACCOUNT : request.resource.split(':')[4] || ACCOUNT },
            // The SDK always calls over TLS: the buckets' and queues' TLS-only denies must not bite.
            contextVariables: { 'aws:SecureTransport': 'true', ...request.context },
          },
        },
        {},
      );
      const result = r.resultType === 'error' ? `error ${JSON.stringify(r.errors)}` : r.overallResult;
      if (result !== 'Allowed') {
        out.push({ fn, request, result });
        continue;
      }
      for (const s of role.statements) {
        if (s.Effect !== 'Allow') continue;
        for (const a of list(s.Action)) {
          if (glob(a, request.action, true) && list(s.Resource).some((res) => glob(res, request.resource))) used.add(grantLabel(a, s));
        }
      }
    }
    this.denials.push(...out);
    return out;
  }

  /** Grants of the functions that ran which no recorded request used. */
  unexercised(): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    for (const [fn, role] of this.roles) {
      const used = this.used.get(fn)!;
      const idle = [...new Set(this.grants(role))].filter((g) => !used.has(g));
      if (idle.length) out[fn] = idle;
    }
    return out;
  }
}

function grantLabel(action: string, s: Statement): string {
  const res = list(s.Resource).map((r) => r.replace(/^arn:aws:[a-z0-9-]*:[a-z0-9-]*:\d*:/, '')).join(', ');
  return `${action} on ${res}${s.Condition ? ` if ${JSON.stringify(s.Condition)}` : ''}`;
}
