import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../functions/config.js';

describe('configuration from the environment', () => {
  it('gives every field its default when nothing is set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ mode: 'local', env: 'local', port: 8787, dataDir: './.data', egressAllow: [], table: 'gleaner', logLevel: 'info', retryBaseSeconds: 10, retryMaxSeconds: 900, concurrencyRuns: 2, tenantCrawlPages: 20, sourceBaseUrls: {} });
    expect(c.graphApiVersion).toMatch(/^v\d+\.\d+$/);
    expect(c.bootstrapKey).toBeUndefined();
    expect('publicUrl' in c).toBe(false);
  });

  it('reads numbers, lists, enums and URLs, and treats an empty variable as unset', () => {
    const c = loadConfig({
      GLEANER_MODE: 'aws', PORT: '0', GLEANER_EGRESS_ALLOW: ' 127.0.0.1:8080, [::1]:9000 ,', GLEANER_CONCURRENCY_RUNS: '16', GLEANER_RETRY_BASE_SECONDS: '0.5',
      GLEANER_PUBLIC_URL: 'https://scrape.example.com', GLEANER_LOG_LEVEL: 'silent', GLEANER_TABLE: '', GLEANER_SOURCE_REDDIT_BASE_URL: 'http://127.0.0.1:4000',
      GLEANER_AUDIT_FLUSH_MS: '60000',
    });
    expect(loadConfig({}).auditFlushMs).toBeUndefined();
    expect(c).toMatchObject({ auditFlushMs: 60_000, mode: 'aws', egressAllow: ['127.0.0.1:8080', '[::1]:9000'], concurrencyRuns: 16, retryBaseSeconds: 0.5, publicUrl: 'https://scrape.example.com', logLevel: 'silent', table: 'gleaner', sourceBaseUrls: { reddit: 'http://127.0.0.1:4000' } });
  });

  it('names every bad variable in one error', () => {
    let err: Error | undefined;
    try {
      loadConfig({ GLEANER_MODE: 'cloud', GLEANER_CONCURRENCY_RUNS: '0', GLEANER_TENANT_CRAWL_PAGES: '2.5', GLEANER_EGRESS_ALLOW: 'localhost', GLEANER_PUBLIC_URL: 'not a url', GLEANER_BOOTSTRAP_API_KEY: 'secret', GLEANER_ORIGIN_SECRET: 'short', GLEANER_SOURCE_X_BASE_URL: 'nope', GLEANER_AUDIT_FLUSH_MS: 'soon' });
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toMatch(/^Invalid configuration:/);
    for (const name of ['GLEANER_MODE: expected one of local, aws', 'GLEANER_CONCURRENCY_RUNS: expected a number from 1 to 64', 'GLEANER_TENANT_CRAWL_PAGES: expected an integer', 'GLEANER_EGRESS_ALLOW: expected host:port', 'GLEANER_PUBLIC_URL: expected a URL', 'GLEANER_BOOTSTRAP_API_KEY: GLEANER_BOOTSTRAP_API_KEY must look like', 'GLEANER_ORIGIN_SECRET: GLEANER_ORIGIN_SECRET must be at least 16', 'GLEANER_SOURCE_X_BASE_URL: expected a URL', 'GLEANER_AUDIT_FLUSH_MS: expected an integer'])
      expect(err?.message).toContain(name);
  });
});

describe('the model endpoint (issue 27)', () => {
  it('refuses a base URL with credentials in it, without repeating them', () => {
    for (const url of ['http://user:s3cret-pass@127.0.0.1:11434/v1', 'https://sk-abc123@models.internal/v1']) {
      let message = '';
      try {
        loadConfig({ GLEANER_LLM_BASE_URL: url, GLEANER_LLM_MODEL: 'llama3.1' });
      } catch (e) {
        message = (e as Error).message;
      }
      expect(message).toMatch(/GLEANER_LLM_BASE_URL: must not contain credentials/);
      expect(message).not.toMatch(/s3cret|sk-abc123/);
    }
    expect(loadConfig({ GLEANER_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', GLEANER_LLM_MODEL: 'llama3.1' }).llmBaseUrl).toBe('http://127.0.0.1:11434/v1');
  });
});
