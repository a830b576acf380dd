import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership, type BucketProps } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { DataResources } from './runtime-wiring.js';

export interface DataStackProps extends StackProps {
  stage: string;
}

/** Days a raw scrape log is kept. */
export const RAW_RETENTION_DAYS = 90;
/** Days a deleted or overwritten result stays recoverable (a noncurrent version). */
export const RESULT_NONCURRENT_DAYS = 30;
/** Days S3 server access logs are kept. */
export const ACCESS_LOG_DAYS = 365;

/**
 * The stateful part: the single table, the two buckets and the tenant-secrets key. Everything
 * here is retained when the stack is deleted.
 */
export class DataStack extends Stack implements DataResources {
  readonly table: Table;
  readonly resultsBucket: Bucket;
  readonly rawBucket: Bucket;
  readonly secretsKey: Key;
  readonly accessLogsBucket: Bucket;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);

    this.table = new Table(this, 'Table', {
      partitionKey: { name: 'pk', type: AttributeType.STRING },
      sortKey: { name: 'sk', type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'expires_at',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const n of [1, 2]) {
      this.table.addGlobalSecondaryIndex({
        indexName: `gsi${n}`,
        partitionKey: { name: `gsi${n}pk`, type: AttributeType.STRING },
        sortKey: { name: `gsi${n}sk`, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    const baseBucket: BucketProps = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    // Who read or deleted which object, kept apart from the data it describes.
    this.accessLogsBucket = new Bucket(this, 'AccessLogsBucket', {
      ...baseBucket,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: Duration.days(ACCESS_LOG_DAYS) }],
    });
    const protectedBucket = (name: string): BucketProps => ({
      ...baseBucket,
      serverAccessLogsBucket: this.accessLogsBucket,
      serverAccessLogsPrefix: `${name}/`,
    });
    // Versioned: a result deleted by a user, a retention sweep or a bug stays recoverable for
    // RESULT_NONCURRENT_DAYS, then the noncurrent version and its delete marker expire.
    this.resultsBucket = new Bucket(this, 'ResultsBucket', {
      ...protectedBucket('results'),
      versioned: true,
      lifecycleRules: [
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
        { id: 'expire-noncurrent-versions', noncurrentVersionExpiration: Duration.days(RESULT_NONCURRENT_DAYS), expiredObjectDeleteMarker: true },
      ],
    });
    this.rawBucket = new Bucket(this, 'RawBucket', {
      ...protectedBucket('raw'),
      lifecycleRules: [
        { id: 'expire-raw-logs', expiration: Duration.days(RAW_RETENTION_DAYS) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) },
      ],
    });

    this.secretsKey = new Key(this, 'SecretsKey', {
      description: `Gleaner ${props.stage}: tenant secrets`,
      alias: `alias/gleaner-${props.stage}-secrets`,
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    // What the operator CLI and the README's deploy steps need (cdk deploy --outputs-file).
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'GLEANER_TABLE for the operator CLI' });
    new CfnOutput(this, 'Region', { value: this.region, description: 'AWS_REGION for the operator CLI' });
    new CfnOutput(this, 'ResultsBucketName', { value: this.resultsBucket.bucketName, description: 'run results (versioned)' });
    new CfnOutput(this, 'RawBucketName', { value: this.rawBucket.bucketName, description: `raw scrape logs (kept ${RAW_RETENTION_DAYS} days)` });
    new CfnOutput(this, 'AccessLogsBucketName', { value: this.accessLogsBucket.bucketName, description: 'S3 server access logs of both buckets' });
  }
}
