/**
 * Governance: the checks every outgoing request passes (DESIGN.md "Governance is the product").
 * Egress guard and proxy, robots.txt, challenge detection, target policy and host politeness.
 */
export { classifyAddress, parseTargetUrl, isIpLiteral, type AddressClass } from './ip-classifier.js';
export { EgressCheck, type EgressCheckOptions } from './egress-check.js';
export { EgressGuard, hostPortKey, type EgressGuardOptions } from './egress-guard.js';
export type { GuardedFetchInit, GuardedResponse } from './guarded-fetch.js';
export { EgressTimeoutError, ResponseTooLargeError, TooManyRedirectsError } from './egress-errors.js';
export { startEgressProxy, chromiumProxyArgs, type EgressProxy } from './egress-proxy.js';
export { RobotsPolicy, type RobotsPolicyOptions, type RobotsDecision } from './robots.js';
export { detectChallenge, type Challenge, type ChallengeKind, type ChallengeInput } from './challenge.js';
export { checkTargetPolicy, isAllowlisted, normalizeDomain, type TargetPolicy } from './target-policy.js';
export { HostGate, type HostGateOptions, type GateTable, type ReleaseSlot } from './politeness.js';
