import type { App, Environment } from 'aws-cdk-lib';
import { routes as allRoutes, workers as allWorkers, type Route, type WorkerDef } from '../functions/routes.js';
import { ApiStack } from './api-stack.js';
import { DataStack } from './data-stack.js';
import { WorkersStack } from './workers-stack.js';

export interface GleanerProps {
  /** Deployment stage: 'dev', 'prod', ... Part of every stack and resource name. */
  stage: string;
  env?: Environment;
  /** A public base address in front of the API (custom domain), when known. */
  publicUrl?: string;
  bedrockModelId?: string;
  throttle?: { rateLimit: number; burstLimit: number };
  /** Defaults to the tables in functions/routes.ts; tests may pass others. */
  routes?: readonly Route[];
  workers?: readonly WorkerDef[];
}

export interface Gleaner {
  data: DataStack;
  workers: WorkersStack;
  api: ApiStack;
}

const STAGE = /^[a-z][a-z0-9-]{0,19}$/;

/** Instantiates Gleaner's stacks for one stage. Stacks are wired by props only. */
export function buildGleaner(app: App, props: GleanerProps): Gleaner {
  const { stage, env } = props;
  if (!STAGE.test(stage)) throw new Error(`stage must match ${STAGE} (got '${stage}')`);
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
    publicUrl: props.publicUrl,
    bedrockModelId: props.bedrockModelId,
    description: `Gleaner ${stage}: queues, workers, job scheduler`,
  });
  const api = new ApiStack(app, `${prefix}-Api`, {
    env,
    tags,
    stage,
    routes: props.routes ?? allRoutes,
    resources: workers.resources,
    publicUrl: props.publicUrl,
    bedrockModelId: props.bedrockModelId,
    throttle: props.throttle,
    description: `Gleaner ${stage}: HTTP API`,
  });
  return { data, workers, api };
}
