import { braveProvider } from './providers/brave.js';
import { tavilyProvider } from './providers/tavily.js';
import { exaProvider } from './providers/exa.js';
import { searxngProvider } from './providers/searxng.js';
import type { SearchProvider, SearchProviderName } from './types.js';

/** Every search provider adapter by name; the Record type makes the compiler check each has one. */
export const searchProviders: Record<SearchProviderName, SearchProvider> = {
  brave: braveProvider,
  tavily: tavilyProvider,
  exa: exaProvider,
  searxng: searxngProvider,
};
