// The Lambda's handler, given the environments its bundle carries: configured from the variables infra/aws.ts sets.
import type { Environment } from "../environments/sdk/index.js";
import { lambdaHandler } from "../functions/agent/lambda.js";
import { awsClients } from "../storage/aws.js";
import { awsAgent, parseBucket } from "./ports.js";
import { lambdaRemotes, withRemotes } from "./remotes.js";

type Vars = Record<string, string | undefined>;

function required(env: Vars, name: string): string {
  const value = env[name];
  if (!value) throw new Error(`the agent Lambda needs ${name}`);
  return value;
}

/**
 * EDGEGYM_QUEUE_URL (the `rollouts` queue), EDGEGYM_DLQ_URL (its dead-letter queue), EDGEGYM_BUCKET (s3://bucket/prefix),
 * EDGEGYM_VISIBILITY_TIMEOUT (the queue's, in seconds), the model's variables, the agent's. AWS_ENDPOINT_URL points the
 * clients at a local emulator, as everywhere.
 */
export function createLambda(environments: Record<string, Environment>, env: Vars = process.env) {
  return lambdaHandler(() => {
    const queueUrl = required(env, "EDGEGYM_QUEUE_URL");
    const clients = awsClients(env);
    const { ports, sqs } = awsAgent({ clients, queueUrl, bucket: parseBucket(required(env, "EDGEGYM_BUCKET")), environments, env });
    const visibility = Number(env.EDGEGYM_VISIBILITY_TIMEOUT ?? "");
    return {
      // Remote NeMo Gym servers (EDGEGYM_REMOTES), made once per instance: their pools' health lasts between events.
      ports: withRemotes(ports, lambdaRemotes(env), env),
      sqs,
      queueUrl,
      ...(env.EDGEGYM_DLQ_URL ? { dlqUrl: env.EDGEGYM_DLQ_URL } : {}),
      ...(Number.isInteger(visibility) && visibility >= 2 ? { visibilityTimeout: visibility } : {}),
      // Lambda sends a function's stderr to CloudWatch: one JSON line per problem that cannot be thrown.
      onError: (error: unknown) =>
        process.stderr.write(`${JSON.stringify({ level: "error", message: error instanceof Error ? error.message : String(error) })}\n`),
    };
  });
}
