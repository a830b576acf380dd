import type { SourceName } from '../../config.js';
import type { Connector } from './types.js';
import { xConnector } from './x.js';
import { redditConnector } from './reddit.js';
import { linkedinConnector } from './linkedin.js';
import { youtubeConnector } from './youtube.js';
import { tiktokConnector } from './tiktok.js';
import { instagramConnector } from './instagram.js';
import { facebookConnector } from './facebook.js';

/**
 * Every source connector by name. The Record type makes the compiler check that each of
 * SOURCE_NAMES has exactly one connector.
 */
export const connectors: Record<SourceName, Connector> = {
  x: xConnector,
  reddit: redditConnector,
  linkedin: linkedinConnector,
  youtube: youtubeConnector,
  tiktok: tiktokConnector,
  instagram: instagramConnector,
  facebook: facebookConnector,
};

/** The connector of a source (throws for an unknown name: callers validate names first). */
export function connectorFor(source: SourceName): Connector {
  const c = connectors[source];
  if (!c) throw new Error(`Unknown source: ${source}`);
  return c;
}
