import type { Contract } from './contract.js';
import { contracts as audit } from './audit.js';
import { contracts as changes } from './changes.js';
import { contracts as deliveries } from './deliveries.js';
import { contracts as domains } from './domains.js';
import { contracts as jobs } from './jobs.js';
import { contracts as overview } from './overview.js';
import { contracts as profiles } from './profiles.js';
import { contracts as queries } from './queries.js';
import { contracts as runbooks } from './runbooks.js';
import { contracts as runs } from './runs.js';
import { contracts as scrape } from './scrape.js';
import { contracts as search } from './search.js';
import { contracts as searchProviders } from './search-providers.js';
import { contracts as service } from './service.js';
import { contracts as session } from './session.js';
import { contracts as settings } from './settings.js';
import { contracts as sources } from './sources.js';
import { contracts as storage } from './storage.js';
import { contracts as storageSettings } from './storage-settings.js';
import { contracts as studio } from './studio.js';
import { contracts as webhooks } from './webhooks.js';

/**
 * Every route's contract by route id. Only the OpenAPI builder and tests import this: a handler
 * imports its own group module, so no Lambda bundle carries the schemas of all routes.
 */
export const allContracts: Record<string, Contract> = {
  ...audit,
  ...changes,
  ...deliveries,
  ...domains,
  ...jobs,
  ...overview,
  ...profiles,
  ...queries,
  ...runbooks,
  ...runs,
  ...scrape,
  ...search,
  ...searchProviders,
  ...service,
  ...session,
  ...settings,
  ...sources,
  ...storage,
  ...storageSettings,
  ...studio,
  ...webhooks,
};
