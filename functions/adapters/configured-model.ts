import type { Config } from '../config.js';
import type { Model } from '../ports/model.js';
import { createBedrockModel } from './aws/bedrock-model.js';
import { createOpenAiCompatibleModel } from './local/openai-compatible-model.js';

/**
 * The model of the json format, when one is configured: Bedrock with `-c extractionModelId`
 * (GLEANER_EXTRACTION_MODEL_ID) or an OpenAI-compatible endpoint (GLEANER_LLM_BASE_URL with
 * GLEANER_LLM_MODEL). When both are set, the Lambda root prefers Bedrock and the local server the
 * OpenAI-compatible endpoint. Building either loads no SDK: Bedrock's is imported on the first call.
 */
export function configuredModel(c: Config, prefer: 'bedrock' | 'openai'): Model | undefined {
  const bedrock = c.extractionModel ? () => createBedrockModel({ modelId: c.extractionModel!, timeoutMs: c.modelTimeoutMs }) : undefined;
  const openai = c.llmBaseUrl && c.llmModel
    ? () => createOpenAiCompatibleModel({ baseUrl: c.llmBaseUrl!, model: c.llmModel!, apiKey: c.llmApiKey, timeoutMs: c.modelTimeoutMs })
    : undefined;
  const pick = prefer === 'bedrock' ? (bedrock ?? openai) : (openai ?? bedrock);
  return pick?.();
}
