import type { App, Environment } from 'aws-cdk-lib';
import { routes as allRoutes, workers as allWorkers, type Route, type WorkerDef } from '../functions/routes.js';
import { ApiStack } from './api-stack.js';
import { ContextError, type DeployOptions } from './context.js';
import { assertWafRegion, publicDomain } from './edge.js';
import { DataStack } from './data-stack.js';
import { OpsStack } from './ops-stack.js';
import type { QueueId } from './runtime-wiring.js';
import { WorkersStack } from './workers-stack.js';

export interface GleanerProps {
  /** Deployment stage: 'dev', 'prod', ... Part of every stack and resource name. */
  stage: string;
  env?: Environment;
  /** Your own https origin in front of the API; requires `certificateArn` (us-east-1). */
  publicUrl?: string;
  certificateArn?: string;
  /** Subscribed to the alarm topic. */
  alarmEmail?: string;
  waf?: DeployOptions['waf'];
  bedrockModelId?: string;
  /** Bedrock model of the json format (model extraction). */
  extractionModelId?: string;
  throttle?: { rateLimit: number; burstLimit: number };
  /** SQS event source MaximumConcurrency per worker (defaults in context.ts). */
  maxConcurrency?: Partial<Record<QueueId, number>>;
  /** Defaults to the tables in functions/routes.ts; tests may pass others. */
  routes?: readonly Route[];
  workers?: readonly WorkerDef[];
}

export interface Gleaner {
  data: DataStack;
  workers: WorkersStack;
  api: ApiStack;
  ops: OpsStack;
}

const STAGE = /^[a-z][a-z0-9-]{0,19}$/;

/**
 * Instantiates Gleaner's stacks for one stage. Stacks are wired by props only; dependencies
 * run one way: Data <- Workers <- Api <- Ops.
 */
export function buildGleaner(app: App, props: GleanerProps): Gleaner {
  const { stage, env } = props;
  if (!STAGE.test(stage)) throw new ContextError(`-c stage=${stage}: must match ${STAGE}`);
  // Refuse bad options before any stack bundles its functions (minutes), not halfway through.
  publicDomain(props.publicUrl, props.certificateArn);
  if (props.waf && 'create' in props.waf) assertWafRegion(env?.region);
  const prefix = `Gleaner-${stage}`;
  const tags = { app: 'gleaner', stage };

  const data = new DataStack(app, `${prefix}-Data`, {
    env,
    tags,
    stage,
    description: `Gleaner ${stage}: table, buckets, secrets key`,
  });
  const workers = new WorkersStack(app, `${prefix}-Workers`, {
    env,
    tags,
    stage,
    data,
    workers: props.workers ?? allWorkers,
    // Workers build links (result_url, webhooks) only from a known public origin.
    publicUrl: props.publicUrl,
    bedrockModelId: props.bedrockModelId,
    extractionModelId: props.extractionModelId,
    maxConcurrency: props.maxConcurrency,
    description: `Gleaner ${stage}: queues, workers, job scheduler`,
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    env,
    tags,
    stage,
    routes: props.routes ?? allRoutes,
    resources: workers.resources,
    publicUrl: props.publicUrl,
    certificateArn: props.certificateArn,
    waf: props.waf,
    bedrockModelId: props.bedrockModelId,
    extractionModelId: props.extractionModelId,
    throttle: props.throttle,
    description: `Gleaner ${stage}: HTTP API behind CloudFront`,
  });
  const ops = new OpsStack(app, `${prefix}-Ops`, {
    env,
    tags,
    stage,
    workers,
    api: api.api,
    streamApi: api.streamApi?.api,
    alarmEmail: props.alarmEmail,
    description: `Gleaner ${stage}: alarm topic and alarms`,
  });
  return { data, workers, api, ops };
}
