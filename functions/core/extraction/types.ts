/** What the engine hands to model extraction for one page (API.md "Model extraction"). */
export interface JsonExtractionInput {
  /** The page's final URL (told to the model; the page content itself is what counts). */
  url: string;
  /** The page's main-content markdown: the same text the egress and target policy let through. */
  markdown: string;
  /** The caller's JSON Schema (validated at submit), sent to the model unchanged. */
  schema: Record<string, unknown>;
  prompt?: string;
}

/** `json_usage` of a result: tokens of every call for this item, and whether the page was cut. */
export interface JsonUsage {
  model: string;
  input_tokens: number;
  output_tokens: number;
  truncated: boolean;
}

/** `json_error` of a result: no valid object could be had for this item. */
export interface JsonError {
  code: string;
  message: string;
}

/** The json fields of one result: `json` (valid against the schema) or `json_error`, with usage. */
export interface JsonOutcome {
  json?: unknown;
  json_error?: JsonError;
  json_usage?: JsonUsage;
}

/** The engine's extraction step (EngineDeps.extractJson), wired with tenant, audit and metering. */
export type JsonExtractor = (input: JsonExtractionInput) => Promise<JsonOutcome>;
