import { describe, expect, it } from 'vitest';
import { iamRequestsFor } from '../../support/iam-requests.js';
import { IamEvaluator } from '../../support/iam-evaluator.js';
import { emulatorCiphertext } from '../../support/aws-emulator.js';
import type { FunctionRole } from '../../support/iam-template.js';

// The pieces the IAM behaviour test stands on: SDK command -> IAM request, and the evaluator's
// verdicts (wildcards, conditions, resource-policy denies), checked on data.
const keyOf = (b64: string) => emulatorCiphertext.keyOf(Buffer.from(b64, 'base64'));
const TABLE = 'arn:aws:dynamodb:us-east-1:123456789012:table/T';

describe('iamRequestsFor', () => {
  it('maps document-client commands to table and index actions', () => {
    expect(iamRequestsFor({ service: 'DynamoDB', command: 'PutCommand', input: { TableName: 'T' } }, keyOf)).toMatchObject([{ action: 'dynamodb:PutItem', resource: TABLE }]);
    expect(iamRequestsFor({ service: 'DynamoDB', command: 'QueryCommand', input: { TableName: 'T', IndexName: 'gsi1' } }, keyOf)).toMatchObject([{ action: 'dynamodb:Query', resource: `${TABLE}/index/gsi1` }]);
    expect(iamRequestsFor({ service: 'DynamoDB', command: 'BatchWriteCommand', input: { RequestItems: ['T'] } }, keyOf)).toMatchObject([{ action: 'dynamodb:BatchWriteItem', resource: TABLE }]);
  });

  it('maps S3 listing to s3:ListBucket on the bucket with its prefix as s3:prefix', () => {
    expect(iamRequestsFor({ service: 'S3', command: 'ListObjectsV2Command', input: { Bucket: 'b', Prefix: 'tenants/t1/' } }, keyOf))
      .toEqual([expect.objectContaining({ action: 's3:ListBucket', resource: 'arn:aws:s3:::b', context: { 's3:prefix': 'tenants/t1/' } })]);
  });

  it('finds the key of a Decrypt in its ciphertext and adds PassRole to schedule writes', () => {
    const blob = emulatorCiphertext.encode('arn:aws:kms:us-east-1:123456789012:key/K', Buffer.from('x')).toString('base64');
    expect(iamRequestsFor({ service: 'KMS', command: 'DecryptCommand', input: { CiphertextBlob: blob } }, keyOf)).toMatchObject([{ action: 'kms:Decrypt', resource: 'arn:aws:kms:us-east-1:123456789012:key/K' }]);
    const s = iamRequestsFor({ service: 'Scheduler', command: 'CreateScheduleCommand', input: { Name: 'n', GroupName: 'g', TargetRoleArn: 'arn:aws:iam::123456789012:role/R' } }, keyOf);
    expect(s.map((r) => r.action)).toEqual(['scheduler:CreateSchedule', 'iam:PassRole']);
    expect(s[1]!.context).toEqual({ 'iam:PassedToService': 'scheduler.amazonaws.com' });
  });

  it('refuses a command it has no mapping for, so nothing slips through unchecked', () => {
    expect(() => iamRequestsFor({ service: 'SNS', command: 'PublishCommand', input: {} }, keyOf)).toThrow(/No IAM mapping/);
  });
});

describe('IamEvaluator', () => {
  const role: FunctionRole = {
    functionId: 'f', roleArn: 'arn:aws:iam::123456789012:role/R', environment: {},
    statements: [
      { Effect: 'Allow', Action: ['s3:GetObject'], Resource: 'arn:aws:s3:::b/tenants/*' },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: 'arn:aws:s3:::b', Condition: { StringLike: { 's3:prefix': ['tenants/t1/*'] } } },
    ],
  };
  const req = (action: string, resource: string, context: Record<string, string> = {}) => ({ action, resource, context, call: 'test' });

  it('allows what a statement grants and denies what none does', async () => {
    const e = new IamEvaluator();
    expect(await e.check('f', role, [req('s3:GetObject', 'arn:aws:s3:::b/tenants/t1/x')])).toEqual([]);
    expect(await e.check('f', role, [req('s3:GetObject', 'arn:aws:s3:::b/other/x')])).toHaveLength(1);
    expect(await e.check('f', role, [req('s3:DeleteObject', 'arn:aws:s3:::b/tenants/t1/x')])).toHaveLength(1);
  });

  it('evaluates conditions: listing only under the granted prefix', async () => {
    const e = new IamEvaluator();
    expect(await e.check('f', role, [req('s3:ListBucket', 'arn:aws:s3:::b', { 's3:prefix': 'tenants/t1/results/' })])).toEqual([]);
    expect(await e.check('f', role, [req('s3:ListBucket', 'arn:aws:s3:::b', { 's3:prefix': 'tenants/t2/' })])).toHaveLength(1);
    expect(await e.check('f', role, [req('s3:ListBucket', 'arn:aws:s3:::b')])).toHaveLength(1);
  });

  it('applies an explicit deny of the resource policy', async () => {
    const deny = { Version: '2012-10-17', Statement: [{ Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:*', Resource: 'arn:aws:s3:::b/*', Condition: { StringLike: { 's3:prefix': 'tenants/*' } } }] };
    const e = new IamEvaluator(() => deny);
    expect(await e.check('f', role, [req('s3:GetObject', 'arn:aws:s3:::b/tenants/t1/x')])).toEqual([]);
    const strict = new IamEvaluator(() => ({ Version: '2012-10-17', Statement: [{ Effect: 'Deny', Principal: { AWS: '*' }, Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/*' }] }));
    expect(await strict.check('f', role, [req('s3:GetObject', 'arn:aws:s3:::b/tenants/t1/x')])).toMatchObject([{ result: 'ExplicitlyDenied' }]);
  });

  it('reports grants no request used', async () => {
    const e = new IamEvaluator();
    await e.check('f', role, [req('s3:GetObject', 'arn:aws:s3:::b/tenants/t1/x')]);
    expect(e.unexercised().f).toEqual([expect.stringContaining('s3:ListBucket')]);
  });
});
