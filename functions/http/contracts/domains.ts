import * as z from 'zod';
import { defineContracts } from './contract.js';
import { listOf } from '../schemas/common.js';
import { domainCreateSchema, domainLimitsSchema, hostSchema } from '../../core/domains/verified-domains.js';

/** Contracts of domains.list, domains.create, domains.delete, domains.verify, domains.limits (API.md "Verified domains and large crawls"). */

const hostParams = z.strictObject({ host: hostSchema.describe('The host as a URL shows it: docs.example.com, or 127.0.0.1:4100 with a port') });

const domainSchema = z.object({
  host: z.string(),
  status: z.enum(['pending', 'verified']),
  token: z.string().describe('Serve it as the whole body of verify_url, or publish txt_record'),
  verify_url: z.string().describe('<scheme>://<host>/.well-known/gleaner-verification/<token>.txt'),
  txt_record: z.string().describe('The DNS alternative (checked on AWS): _gleaner.<host> TXT "gleaner-verification=<token>"'),
  created_at: z.string(),
  verified_at: z.string().nullable(),
  checked_at: z.string().nullable().describe('When verification was last attempted'),
  error: z.string().nullable().describe('Why the last verification attempt failed; null after a success'),
  limits: domainLimitsSchema.nullable().describe('This tenant\'s limits on the host; null = polite defaults and robots.txt crawl-delay'),
});

const example = {
  host: 'docs.example.com',
  status: 'pending',
  token: 'Yk3v9rJx2QwL0aPzN8sT1cUe',
  verify_url: 'https://docs.example.com/.well-known/gleaner-verification/Yk3v9rJx2QwL0aPzN8sT1cUe.txt',
  txt_record: '_gleaner.docs.example.com TXT "gleaner-verification=Yk3v9rJx2QwL0aPzN8sT1cUe"',
  created_at: '2026-11-23T10:00:00.000Z',
  verified_at: null,
  checked_at: null,
  error: null,
  limits: null,
};

export const contracts = defineContracts({
  'domains.list': {
    summary: 'Verified domains: hosts this tenant has added (pending or verified) and their limits',
    success: { 200: { description: 'Every domain of the tenant (next_cursor is always null)', schema: listOf(domainSchema) } },
  },
  'domains.create': {
    summary: 'Add a host to verify: returns the token to serve at verify_url (or publish as txt_record)',
    body: domainCreateSchema,
    requestExample: { host: 'docs.example.com' },
    success: {
      201: { description: 'The new pending domain', schema: domainSchema, example },
      200: { description: 'The host was already added: the existing domain, same token', schema: domainSchema },
    },
  },
  'domains.delete': {
    summary: 'Remove a domain: its runs go back to the polite defaults',
    params: hostParams,
    success: { 204: { description: 'Deleted' } },
    errors: { 404: 'No such domain for this tenant' },
  },
  'domains.verify': {
    summary: 'Check the token now (the well-known file through the egress guard; DNS TXT on AWS)',
    description: 'Answers 200 either way: `status` is `verified` on success, else `pending` with `error` saying what was found (wrong body, HTTP status, address refused by the egress guard, timeout). A verified domain stays verified when a later check fails.',
    params: hostParams,
    success: { 200: { description: 'The domain after the check', schema: domainSchema } },
    errors: { 404: 'No such domain for this tenant' },
  },
  'domains.limits': {
    summary: 'Set this tenant\'s crawl limits on a verified host (replaces robots.txt crawl-delay)',
    params: hostParams,
    body: domainLimitsSchema,
    requestExample: { concurrency: 16, delay_ms: 0 },
    success: { 200: { description: 'The domain with its limits', schema: domainSchema } },
    errors: { 404: 'No such domain for this tenant', 409: 'domain_not_verified: the host is not verified yet' },
  },
});
