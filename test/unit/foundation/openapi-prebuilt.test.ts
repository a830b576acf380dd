import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../functions/http/openapi.js';
import { ORIGIN_PLACEHOLDER, prebuiltOpenApiDocument } from '../../../functions/http/openapi-prebuilt.js';
import { handler } from '../../../functions/http/openapi-get.js';
import { contracts } from '../../../functions/http/contracts/service.js';

// GET /v1/openapi.json serves a document built from the contracts at build time
// (scripts/build-openapi.ts), so its function starts without every route's schemas. It must be
// exactly the document the contracts give now.
describe('prebuilt OpenAPI document', () => {
  it('equals the document built from the route contracts (else run `npx tsx scripts/build-openapi.ts`)', async () => {
    const served = JSON.stringify(await prebuiltOpenApiDocument(ORIGIN_PLACEHOLDER));
    expect(served === JSON.stringify(openApiDocument(ORIGIN_PLACEHOLDER)), 'functions/http/openapi-prebuilt-data.ts is stale: run `npx tsx scripts/build-openapi.ts`').toBe(true);
  });

  it('names the request origin as its server, and is otherwise the same for every origin', async () => {
    for (const origin of ['https://gleaner.test', 'http://127.0.0.1:8787']) {
      const served = JSON.stringify(await prebuiltOpenApiDocument(origin));
      expect(served).toBe(JSON.stringify(openApiDocument(origin)));
      expect((JSON.parse(served) as { servers: unknown }).servers).toEqual([{ url: origin }]);
    }
  });

  it('is what the openapi.get handler serves', () => {
    expect(handler.contractId).toBe(contracts['openapi.get'].id);
  });
});
