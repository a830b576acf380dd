import { describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { ORIGIN_VERIFY_HEADER } from '../../../functions/config.js';
import { AppError } from '../../../functions/core/errors.js';
import { checkOrigin, parseViewerAddress, viewerIp } from '../../../functions/http/pipeline/edge.js';

const SECRET = 'a'.repeat(16) + 'B'.repeat(32);
const event = (headers: Record<string, string> = {}) =>
  ({ headers, rawPath: '/v1/tenant', requestContext: { http: { sourceIp: '130.176.0.9', method: 'GET', path: '/v1/tenant' } } }) as unknown as APIGatewayProxyEventV2;
const aws = { mode: 'aws' as const, originSecret: SECRET };

const refused = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    return e instanceof AppError ? { status: e.status, body: e.toJSON() } : e;
  }
  return 'accepted';
};

describe('origin check (API reachable only through CloudFront)', () => {
  it('accepts a request carrying the CloudFront origin secret', () => {
    expect(refused(() => checkOrigin(event({ [ORIGIN_VERIFY_HEADER]: SECRET }), aws))).toBe('accepted');
  });

  it('answers 403 {code, message} without the header, with a wrong one, or when the function has no secret', () => {
    for (const [headers, cfg] of [
      [{}, aws],
      [{ [ORIGIN_VERIFY_HEADER]: SECRET.slice(1) }, aws],
      [{ [ORIGIN_VERIFY_HEADER]: SECRET.replace('B', 'C') }, aws],
      [{ [ORIGIN_VERIFY_HEADER]: SECRET }, { mode: 'aws' as const, originSecret: undefined }],
    ] as const) {
      const r = refused(() => checkOrigin(event(headers), cfg)) as { status: number; body: { code: string; message: string } };
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: 'forbidden', message: expect.stringContaining('service domain') });
    }
  });

  it('does not apply in local mode (no CloudFront there)', () => {
    expect(refused(() => checkOrigin(event(), { mode: 'local', originSecret: undefined }))).toBe('accepted');
  });
});

describe('viewer address', () => {
  it('strips the port from CloudFront-Viewer-Address, IPv4 and IPv6', () => {
    expect(parseViewerAddress('203.0.113.7:46532')).toBe('203.0.113.7');
    expect(parseViewerAddress('2001:db8:85a3::8a2e:370:7334:443')).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(parseViewerAddress('[2001:db8::1]:443')).toBe('2001:db8::1');
    for (const bad of ['203.0.113.7', 'example.com:443', 'garbage', '', undefined]) expect(parseViewerAddress(bad)).toBeUndefined();
  });

  it('records the viewer, not the CloudFront edge, once the origin check proved CloudFront sent the request', () => {
    const e = event({ [ORIGIN_VERIFY_HEADER]: SECRET, 'CloudFront-Viewer-Address': '203.0.113.7:46532' });
    expect(viewerIp(e)).toBe('130.176.0.9'); // not yet verified
    checkOrigin(e, aws);
    expect(viewerIp(e)).toBe('203.0.113.7');
  });

  it('ignores a CloudFront-Viewer-Address the origin check did not vouch for (local mode, spoofed)', () => {
    const e = event({ 'cloudfront-viewer-address': '198.51.100.1:1' });
    checkOrigin(e, { mode: 'local', originSecret: undefined });
    expect(viewerIp(e)).toBe('130.176.0.9');
  });
});
