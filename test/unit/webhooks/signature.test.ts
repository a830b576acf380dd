import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateWebhookSecret, secretKey, signPayload, verifySignature, webhookHeaders } from '../../../functions/core/webhooks/signature.js';

// The Standard Webhooks specification's example (standard-webhooks/spec), recomputed by hand below.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('Standard Webhooks signing', () => {
  it('matches the known vector, computed by hand with node:crypto', () => {
    const key = Buffer.from(VECTOR.secret.slice('whsec_'.length), 'base64');
    const byHand = `v1,${createHmac('sha256', key).update(`${VECTOR.id}.${VECTOR.timestamp}.${VECTOR.body}`).digest('base64')}`;
    expect(byHand).toBe(VECTOR.signature);
    expect(signPayload(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  it('sends webhook-id, webhook-timestamp, webhook-signature and a JSON content type', () => {
    expect(webhookHeaders(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body)).toEqual({
      'content-type': 'application/json',
      'webhook-id': VECTOR.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': VECTOR.signature,
    });
  });

  it('verifies within the tolerance, and refuses a changed body, id, timestamp or secret', () => {
    const now = VECTOR.timestamp * 1000;
    const h = { id: VECTOR.id, timestamp: String(VECTOR.timestamp), signature: VECTOR.signature };
    expect(verifySignature(VECTOR.secret, h, VECTOR.body, now)).toBe(true);
    expect(verifySignature(VECTOR.secret, { ...h, signature: `v1,bogus ${VECTOR.signature}` }, VECTOR.body, now)).toBe(true);
    expect(verifySignature(VECTOR.secret, h, '{"test": 2432232315}', now)).toBe(false);
    expect(verifySignature(VECTOR.secret, { ...h, id: 'msg_other' }, VECTOR.body, now)).toBe(false);
    expect(verifySignature(VECTOR.secret, { ...h, timestamp: String(VECTOR.timestamp + 1) }, VECTOR.body, now)).toBe(false);
    expect(verifySignature(generateWebhookSecret(), h, VECTOR.body, now)).toBe(false);
    expect(verifySignature(VECTOR.secret, h, VECTOR.body, now + 301_000)).toBe(false);
    expect(verifySignature(VECTOR.secret, { ...h, signature: VECTOR.signature.replace('v1,', 'v2,') }, VECTOR.body, now)).toBe(false);
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(secretKey(a)).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
    expect(() => secretKey('not-a-secret')).toThrow();
  });
});
