#!/usr/bin/env node
import { App, Validations } from 'aws-cdk-lib';
import { ContextError, deployOptionsFromApp } from '../lib/context.js';
import { buildGleaner } from '../lib/gleaner.js';
import { GleanerNagChecks } from '../lib/nag-suppressions.js';

// Context keys and their meaning: lib/context.ts (CONTEXT_KEYS). For example
//   npx cdk deploy --all -c stage=prod -c alarmEmail=ops@example.com --outputs-file cdk-outputs.json
const app = new App();
try {
  buildGleaner(app, {
    ...deployOptionsFromApp(app),
    env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  });
} catch (e) {
  if (!(e instanceof ContextError)) throw e;
  // A bad -c option: say which and why, without a stack trace.
  console.error(`Gleaner: ${e.message}`);
  process.exit(1);
}
// cdk-nag AwsSolutions: an unaccepted finding fails synth (accepted ones: lib/nag-suppressions.ts).
Validations.of(app).addPlugins(new GleanerNagChecks(app));
app.synth();
