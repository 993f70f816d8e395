// `edgegym aws up`: the AWS path on this machine (fauxqs for SQS and S3, the queues and the bucket made), until Ctrl-C.
import { Command, InvalidArgumentError } from "commander";

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65_535) throw new InvalidArgumentError("expected a port number (0 picks a free one)");
  return n;
}

function atLeastOne(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a whole number ≥ 1");
  return n;
}

interface UpFlags {
  port: number;
  queue: string;
  bucket: string;
  maxReceiveCount: number;
}

async function up(flags: UpFlags): Promise<void> {
  // Loaded here: fauxqs is for this command only, and every other command starts without it.
  const { startLocalAwsStack } = await import("../aws/up.js");
  const modelUrl = process.env.EDGEGYM_MODEL_URL || undefined;
  const stack = await startLocalAwsStack({ ...flags, modelUrl, model: process.env.EDGEGYM_MODEL || undefined }).catch((error: unknown) => {
    const taken = error as { code?: string; port?: number };
    if (taken.code === "EADDRINUSE") throw new Error(`port ${taken.port ?? flags.port} is taken: --port <n> picks another pair (n and n+1; 0: any free ones)`);
    throw error;
  });
  const variables = {
    AWS_ENDPOINT_URL: stack.endpoint,
    EDGEGYM_QUEUE_URL: stack.queueUrl,
    EDGEGYM_BUCKET: stack.bucket,
    EDGEGYM_MODEL_URL: stack.modelUrl,
    ...(stack.model ? { EDGEGYM_MODEL: stack.model } : {}),
  };
  const example = "example_single_tool_call";
  process.stdout.write(
    [
      `edgegym aws: SQS and S3 (fauxqs) at ${stack.endpoint}, conditional writes answered as S3 answers them`,
      `rollouts queue:    ${stack.queueUrl}`,
      `dead-letter queue: ${stack.dlqUrl} (after ${flags.maxReceiveCount} receives)`,
      `bucket:            ${stack.bucket}`,
      `model:             ${stack.modelUrl}${stack.simulator ? " (the vLLM simulator; EDGEGYM_MODEL_URL and EDGEGYM_MODEL name a real one)" : ""}`,
      "",
      "In another shell, in this checkout:",
      ...Object.entries(variables).map(([name, value]) => `  export ${name}=${value}`),
      "  npx edgegym worker --queue-url $EDGEGYM_QUEUE_URL --bucket $EDGEGYM_BUCKET",
      `  npx edgegym collect --queue-url $EDGEGYM_QUEUE_URL --bucket $EDGEGYM_BUCKET -e ${example} -i environments/${example}/data/example.jsonl -o out/aws.jsonl -n 2`,
      "  npx edgegym jobs list --bucket $EDGEGYM_BUCKET",
      "Everything is in memory: Ctrl-C stops it, and the queues and the bucket go with it.",
      "",
    ].join("\n"),
  );
  const stop = async () => {
    await stack.stop();
    process.stdout.write("edgegym aws: stopped\n");
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

export function awsCommand(): Command {
  const aws = new Command("aws").description("the AWS path on this machine");
  aws
    .command("up")
    .description("start SQS and S3 (fauxqs) with the rollouts queue, its dead-letter queue and the jobs bucket, and the simulator, until Ctrl-C")
    .option("-p, --port <port>", "the endpoint's port on 127.0.0.1 (AWS_ENDPOINT_URL); fauxqs itself takes the next one", port, 4566)
    .option("--queue <name>", "the rollouts queue (its dead-letter queue: <name>-dlq)", "edgegym-rollouts")
    .option("--bucket <name>", "the jobs bucket", "edgegym-jobs")
    .option("--max-receive-count <n>", "deliveries of a message before it moves to the dead-letter queue", atLeastOne, 5)
    .action(up);
  return aws;
}
