#!/usr/bin/env node
import { App } from 'aws-cdk-lib';
import { buildGleaner } from '../lib/gleaner.js';

// Context: stage (default 'dev'); optional publicUrl, bedrockModelId, throttleRate/throttleBurst.
//   npx cdk deploy --all -c stage=prod
const app = new App();
const ctx = (key: string): string | undefined => {
  const v: unknown = app.node.tryGetContext(key);
  return v === undefined || v === null || v === '' ? undefined : String(v);
};
const rate = ctx('throttleRate');
const burst = ctx('throttleBurst');

buildGleaner(app, {
  stage: ctx('stage') ?? 'dev',
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  publicUrl: ctx('publicUrl'),
  bedrockModelId: ctx('bedrockModelId'),
  throttle: rate && burst ? { rateLimit: Number(rate), burstLimit: Number(burst) } : undefined,
});
app.synth();
