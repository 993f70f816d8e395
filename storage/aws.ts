// The AWS SDK clients for S3 and SQS, configured from the standard AWS environment variables (or a local emulator's endpoint).
import { S3Client } from "@aws-sdk/client-s3";
import { SQSClient } from "@aws-sdk/client-sqs";

export interface AwsClients {
  s3: S3Client;
  sqs: SQSClient;
}

type Env = Record<string, string | undefined>;

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === "localhost" || host.endsWith(".localhost") || host === "127.0.0.1" || host === "[::1]";
}

/**
 * S3 and SQS clients from `AWS_REGION` (or `AWS_DEFAULT_REGION`), `AWS_ENDPOINT_URL_S3` / `AWS_ENDPOINT_URL_SQS` /
 * `AWS_ENDPOINT_URL` and the SDK's usual credential chain. With an endpoint set (a local emulator, or R2's S3 API):
 * path-style S3 addressing, region `us-east-1` unless one is given (R2 takes `auto`), and, for a loopback endpoint
 * without keys in the environment, dummy credentials (an emulator checks none; the SDK's chain would otherwise probe EC2
 * metadata for seconds).
 */
export function awsClients(env: Env = process.env): AwsClients {
  const region = env.AWS_REGION ?? env.AWS_DEFAULT_REGION;
  const s3Endpoint = env.AWS_ENDPOINT_URL_S3 ?? env.AWS_ENDPOINT_URL;
  const sqsEndpoint = env.AWS_ENDPOINT_URL_SQS ?? env.AWS_ENDPOINT_URL;
  const config = (endpoint: string | undefined) => ({
    ...(endpoint ? { endpoint, region: region ?? "us-east-1" } : region ? { region } : {}),
    ...(endpoint && isLoopback(endpoint) && !env.AWS_ACCESS_KEY_ID ? { credentials: { accessKeyId: "local", secretAccessKey: "local" } } : {}),
  });
  return {
    s3: new S3Client({ ...config(s3Endpoint), forcePathStyle: s3Endpoint !== undefined }),
    sqs: new SQSClient(config(sqsEndpoint)),
  };
}
