// Its own module so that a handler that only reports it (session.me's features) bundles nothing
// of the schema checks that readiness.ts runs.

/** What to do when no model provider is configured (422 model_not_configured, and item errors). */
export const MODEL_NOT_CONFIGURED_MESSAGE =
  'Model extraction (the json format) needs a model provider, and none is configured. Locally or self-hosted: set GLEANER_LLM_BASE_URL ' +
  '(an OpenAI-compatible endpoint, e.g. http://127.0.0.1:11434/v1 for Ollama) and GLEANER_LLM_MODEL (plus GLEANER_LLM_API_KEY if it needs one). ' +
  'On AWS: deploy with -c extractionModelId=<Bedrock model or inference profile id>.';
