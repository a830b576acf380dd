import { ACCOUNT, REGION } from './iam-template.js';

/** One AWS SDK command a function sent (see aws-recorder.mjs). */
export interface RecordedCall {
  service: string;
  command: string;
  input: Record<string, unknown>;
}

/** What IAM authorizes for one call: an action on a resource, with the request's context keys. */
export interface IamRequest {
  action: string;
  resource: string;
  context: Record<string, string>;
  /** The call it came from, for messages. */
  call: string;
}

const op = (command: string) => command.replace(/Command$/, '');

/** lib-dynamodb's document commands are the table operations under another name. */
const DOC_COMMANDS: Record<string, string> = {
  Get: 'GetItem', Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem',
  BatchGet: 'BatchGetItem', BatchWrite: 'BatchWriteItem', TransactGet: 'TransactGetItems', TransactWrite: 'TransactWriteItems',
};

const tableArn = (name: string) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${name}`;
const queueArn = (url: string) => {
  const [account, name] = new URL(url).pathname.split('/').filter(Boolean);
  return `arn:aws:sqs:${REGION}:${account}:${name}`;
};
const kmsArn = (id: string) => (id.startsWith('arn:') ? id : `arn:aws:kms:${REGION}:${ACCOUNT}:key/${id}`);
const modelArn = (id: string) =>
  id.startsWith('arn:') ? id
    : /^(us|eu|apac|global)\./.test(id) ? `arn:aws:bedrock:${REGION}:${ACCOUNT}:inference-profile/${id}`
      : `arn:aws:bedrock:${REGION}::foundation-model/${id}`;

/**
 * The IAM requests one SDK call makes (the service authorization reference's mapping of each
 * operation to actions, resources and condition keys). Unknown operations throw, so a new kind of
 * call cannot slip through unchecked.
 */
export function iamRequestsFor(call: RecordedCall, keyOfCiphertext: (b64: string) => string | undefined): IamRequest[] {
  const i = call.input;
  const name = op(call.command);
  const label = `${call.service}.${name}`;
  const req = (action: string, resource: string, context: Record<string, string> = {}): IamRequest => ({ action, resource, context, call: label });
  switch (call.service) {
    case 'DynamoDB': {
      const action = DOC_COMMANDS[name] ?? name;
      if (action === 'BatchGetItem' || action === 'BatchWriteItem') return (i.RequestItems as string[]).map((t) => req(`dynamodb:${action}`, tableArn(t)));
      if (action === 'TransactWriteItems' || action === 'TransactGetItems') {
        // IAM authorizes each item's own operation, not the transaction.
        const map: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };
        return (i.TransactItems as Record<string, string>[]).flatMap((t) => Object.entries(t).map(([k, table]) => req(`dynamodb:${map[k]}`, tableArn(table))));
      }
      const resource = i.IndexName ? `${tableArn(String(i.TableName))}/index/${String(i.IndexName)}` : tableArn(String(i.TableName));
      return [req(`dynamodb:${action}`, resource)];
    }
    case 'S3': {
      const obj = `arn:aws:s3:::${String(i.Bucket)}/${String(i.Key)}`;
      const bucket = `arn:aws:s3:::${String(i.Bucket)}`;
      switch (name) {
        case 'GetObject': case 'HeadObject': return [req('s3:GetObject', obj)];
        case 'PutObject': case 'CreateMultipartUpload': case 'UploadPart': case 'CompleteMultipartUpload': return [req('s3:PutObject', obj)];
        case 'AbortMultipartUpload': return [req('s3:AbortMultipartUpload', obj)];
        case 'DeleteObject': return [req('s3:DeleteObject', obj)];
        case 'DeleteObjects': return (i.DeleteKeys as string[]).map((k) => req('s3:DeleteObject', `${bucket}/${k}`));
        case 'ListObjectsV2': case 'ListObjects': return [req('s3:ListBucket', bucket, i.Prefix !== undefined ? { 's3:prefix': String(i.Prefix) } : {})];
        case 'HeadBucket': return [req('s3:ListBucket', bucket)];
      }
      break;
    }
    case 'SQS': {
      const arn = queueArn(String(i.QueueUrl));
      if (name === 'SendMessageBatch') return [req('sqs:SendMessage', arn)];
      return [req(`sqs:${name}`, arn)];
    }
    case 'KMS': {
      const key = i.KeyId ? String(i.KeyId) : keyOfCiphertext(String(i.CiphertextBlob ?? ''));
      if (!key) throw new Error(`${label}: cannot tell which key`);
      return [req(`kms:${name}`, kmsArn(key))];
    }
    case 'Scheduler': {
      const arn = `arn:aws:scheduler:${REGION}:${ACCOUNT}:schedule/${String(i.GroupName ?? 'default')}/${String(i.Name)}`;
      const out = [req(`scheduler:${name}`, arn)];
      if (i.TargetRoleArn) out.push(req('iam:PassRole', String(i.TargetRoleArn), { 'iam:PassedToService': 'scheduler.amazonaws.com' }));
      return out;
    }
    case 'Bedrock Runtime': {
      const stream = name === 'ConverseStream' || name === 'InvokeModelWithResponseStream';
      return [req(stream ? 'bedrock:InvokeModelWithResponseStream' : 'bedrock:InvokeModel', modelArn(String(i.modelId)))];
    }
  }
  throw new Error(`No IAM mapping for ${label}: add one to test/support/iam-requests.ts`);
}
