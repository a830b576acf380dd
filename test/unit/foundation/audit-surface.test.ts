import { describe, expect, it } from 'vitest';
import { auditSurface, CLIENT_HEADER } from '../../../functions/http/pipeline/api.js';

// Where the audit log says a call was made (issue 41): the console sends x-gleaner-client:
// console with every call, so an action done there with a pasted key reads "Console", not "API".
describe('the audit record\'s surface', () => {
  it('is the console for a console user, and for a key\'s API call the console made', () => {
    expect(CLIENT_HEADER).toBe('x-gleaner-client');
    expect(auditSurface('user', 'api', undefined)).toBe('console');
    expect(auditSurface('key', 'api', 'console')).toBe('console');
  });

  it('stays the route\'s otherwise: a key\'s own API calls, MCP calls whatever they claim, console routes', () => {
    expect(auditSurface('key', 'api', undefined)).toBe('api');
    expect(auditSurface('key', 'api', 'curl')).toBe('api');
    expect(auditSurface('key', 'mcp', 'console')).toBe('mcp');
    expect(auditSurface('key', 'console', undefined)).toBe('console');
  });
});
