/** The budget thread's tasks (budget-thread.ts): plain data in and out, each loading its library on first use. */
export const BUDGET_TASKS = {
  /** A caller's JSON Schema: static complexity limits, then compiled (400 invalid / 422 too complex). */
  async 'schema.check'(input: { schema: Record<string, unknown> }): Promise<void> {
    const { compileSchema } = await import('../extraction/schema-compile.js');
    compileSchema(input.schema);
  },
  /** A model's answer against the caller's schema: the problems, [] when valid. */
  async 'schema.validate'(input: { schema: Record<string, unknown>; json: unknown }): Promise<{ valid: boolean; problems: string[] }> {
    const { validateAgainst } = await import('../extraction/schema-compile.js');
    return validateAgainst(input.schema, input.json);
  },
  /** One HTML page parsed, matched against the tenant's selectors and extracted (engine/shape-page.ts). */
  async 'page.shape'(input: { html: string; spec: import('../engine/shape-page.js').ShapeSpec }) {
    const { shapePage } = await import('../engine/shape-page.js');
    return shapePage(input.html, input.spec);
  },
  /** A css-extract page or a runbook `extract` step: the tenant's item, field and next-page selectors (scrapers/extract-records.ts). */
  async 'records.extract'(input: import('../scrapers/extract-records.js').ExtractRecordsInput) {
    const { extractRecords } = await import('../scrapers/extract-records.js');
    return extractRecords(input);
  },
  /** Studio's selector count on a preview's HTML (studio/match-selector.ts). */
  async 'studio.match'(input: { html: string; selector: string }) {
    const { matchSelector } = await import('../studio/match-selector.js');
    return matchSelector(input.html, input.selector);
  },
  /** Change tracking's comparison of one page with its baseline: normalise, line diff, field diff (changes/compare-page.ts). */
  async 'changes.compare'(input: import('../changes/compare-page.js').CompareInput) {
    const { comparePage } = await import('../changes/compare-page.js');
    return comparePage(input);
  },
  /** Studio's preview boxes checked on the page's HTML (studio/verify-boxes.ts). */
  async 'studio.boxes'(input: import('../studio/verify-boxes.js').VerifyBoxesInput) {
    const { verifyBoxes } = await import('../studio/verify-boxes.js');
    return verifyBoxes(input);
  },
  /** A PDF: metadata, markdown and text (content/pdf.ts), its compressed streams bounded first. */
  async 'pdf.read'(input: { bytes: Uint8Array; maxPages?: number }) {
    const { readPdf } = await import('../content/pdf.js');
    return readPdf(input.bytes, { maxPages: input.maxPages });
  },
};

