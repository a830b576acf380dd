import { describe, expect, it } from 'vitest';
import { redactUrlCredentials } from '../../../functions/core/redact-url.js';
import { EgressTimeoutError, ResponseTooLargeError, TooManyRedirectsError } from '../../../functions/core/governance/egress-errors.js';
import { AppError, NonRetryableError } from '../../../functions/core/errors.js';
import { SourceError } from '../../../functions/core/sources/types.js';
import { redact } from '../../../functions/core/log.js';

const SECRET = 'EAAGm0PX4ZCpsBA1secretTOKEN';
const urls = [
  `https://graph.facebook.example/v21.0/me/accounts?fields=id,name&access_token=${SECRET}&limit=100`,
  `https://www.googleapis.example/youtube/v3/videos?part=statistics&id=a,b&key=${SECRET}`,
  `https://user:${SECRET}@example.com/path`,
  `https://bucket.s3.example/o?X-Amz-Credential=AKIA%2F${SECRET}&X-Amz-Signature=${SECRET}`,
  `/relative?api_key=${SECRET}#frag`,
  `client_secret=${SECRET}&grant_type=client_credentials`,
  `https://x.example/?sig=${SECRET}&Authorization=${SECRET}&password=${SECRET}&oauth_token=${SECRET}`,
];

describe('credentials in URLs (issue 19 finding 8)', () => {
  it.each(urls)('masks them in %s', (u) => {
    const out = redactUrlCredentials(`failed: ${u} (timeout)`);
    expect(out).not.toContain(SECRET);
    expect(out).toContain('[redacted]');
  });

  it('keeps what is not a credential', () => {
    const u = 'https://example.com/search?q=token+economy&author=jo&keyword=x&monkey=1&page=2';
    expect(redactUrlCredentials(u)).toBe(u);
    expect(redactUrlCredentials('mail me at a@b.example')).toBe('mail me at a@b.example');
  });

  it('error messages built around a URL never carry its credentials', () => {
    const u = urls[0]!;
    for (const err of [
      new EgressTimeoutError(u, 30_000),
      new TooManyRedirectsError(u, 10),
      new ResponseTooLargeError(u, 1024),
      new AppError(502, 'bad_gateway', `upstream ${u} failed`),
      new NonRetryableError(`gave up on ${urls[1]}`),
      new SourceError(`facebook unreachable: Request to ${u} timed out`),
    ]) {
      expect(err.message).not.toContain(SECRET);
      expect(JSON.stringify(err)).not.toContain(SECRET);
    }
  });

  it('log lines never carry them, in messages, fields or errors', () => {
    const line = JSON.stringify(redact({ url: urls[1], reason: `GET ${urls[2]} failed`, err: new Error(`to ${urls[0]}`) }));
    expect(line).not.toContain(SECRET);
  });
});
