import { Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Key } from 'aws-cdk-lib/aws-kms';
import { BlockPublicAccess, Bucket, BucketEncryption, type BucketProps } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { DataResources } from './runtime-wiring.js';

export interface DataStackProps extends StackProps {
  stage: string;
}

/** Days a raw scrape log is kept. */
export const RAW_RETENTION_DAYS = 90;

/**
 * The stateful part: the single table, the two buckets and the tenant-secrets key. Everything
 * here is retained when the stack is deleted.
 */
export class DataStack extends Stack implements DataResources {
  readonly table: Table;
  readonly resultsBucket: Bucket;
  readonly rawBucket: Bucket;
  readonly secretsKey: Key;

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

    const protectedBucket: BucketProps = {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    this.resultsBucket = new Bucket(this, 'ResultsBucket', {
      ...protectedBucket,
      lifecycleRules: [{ id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(7) }],
    });
    this.rawBucket = new Bucket(this, 'RawBucket', {
      ...protectedBucket,
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
  }
}
