// `edgegym worker --queue-url <url>`: the agent as a long-polling SQS consumer on any machine (the Lambda's twin): the same
// handleWork, a progress line, and a stop on SIGTERM or Ctrl-C that lets running rollouts finish or hands their messages back.
import { GetQueueAttributesCommand, GetQueueUrlCommand, type SQSClient } from "@aws-sdk/client-sqs";
import { Command, InvalidArgumentError, Option } from "commander";
import { chooseEnvironments, loadEnvironments } from "../../aws/environments.js";
import { awsAgent, parseBucket } from "../../aws/ports.js";
import { QUEUES } from "../../contracts/names.js";
import { escapeControl } from "../../http/log.js";
import { handleWork } from "../../functions/agent/consumer.js";
import type { AgentPorts } from "../../functions/agent/ports.js";
import { sqsQueueName } from "../../queues/sqs.js";
import { type PollEvent, type PollSummary, pollQueue } from "../../queues/sqs-poller.js";
import { awsClients } from "../../storage/aws.js";
import { conditionalWritesHonoured } from "../../storage/s3.js";
import { PROJECT_ROOT } from "../paths.js";

function whole(min: number) {
  return (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected a whole number ≥ ${min}`);
    return n;
  };
}

/** The queue's dead-letter queue, from its redrive policy; undefined when it has none. */
async function deadLetterQueue(sqs: SQSClient, queueUrl: string): Promise<string | undefined> {
  const { Attributes = {} } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ["RedrivePolicy"] }));
  if (!Attributes.RedrivePolicy) return undefined;
  const { deadLetterTargetArn } = JSON.parse(Attributes.RedrivePolicy) as { deadLetterTargetArn?: string };
  if (!deadLetterTargetArn) return undefined;
  const [, , , , account] = deadLetterTargetArn.split(":");
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: sqsQueueName(deadLetterTargetArn), QueueOwnerAWSAccountId: account }));
  return QueueUrl;
}

interface Tally {
  /** Messages received: rollouts, and chunks to expand into rollouts. */
  received: number;
  /** Rollouts whose record (scored, or a failure) this worker wrote: an expand message is no rollout. */
  done: number;
  retried: number;
  released: number;
  errors: number;
}

/** The agent's ports with each result it records counted. */
function countingResults(ports: AgentPorts, count: (rollouts: number) => void): AgentPorts {
  const results = ports.results;
  if (!("send" in results)) {
    return {
      ...ports,
      results: {
        async record(id, entries) {
          const recorded = await results.record(id, entries);
          count(entries.length);
          return recorded;
        },
      },
    };
  }
  return {
    ...ports,
    results: {
      limits: results.limits,
      async send(body, options) {
        await results.send(body, options);
        count(1);
      },
      async sendBatch(messages) {
        await results.sendBatch(messages);
        count(messages.length);
      },
    },
  };
}

function progressLine(tally: Tally, inFlight: number): string {
  return `worker: ${tally.done} done, ${tally.retried} retried, ${inFlight} in flight, ${tally.errors} errors (${tally.received} messages received)\n`;
}

export function workerCommand(): Command {
  return new Command("worker")
    .description("run agents on this machine: consume the SQS rollouts queue (and its dead-letter queue), write results to S3")
    .requiredOption("--queue-url <sqs url>", "the rollouts queue")
    .addOption(new Option("--bucket <s3://bucket/prefix>", "where the jobs' inputs and results live").env("EDGEGYM_BUCKET").makeOptionMandatory())
    .option("-c, --concurrency <n>", "messages (rollouts) in flight at most", whole(1), 16)
    .option("--dlq-url <sqs url>", "the dead-letter queue (default: the queue's redrive policy names it)")
    .option("--visibility-timeout <seconds>", "how long a received message stays hidden; renewed while its rollout runs", whole(2), 60)
    .option("--grace-seconds <seconds>", "on SIGTERM: how long running rollouts may finish before their messages go back", whole(0), 30)
    .option("--wait-seconds <seconds>", "SQS long-poll wait (a stop waits for a poll in progress)", whole(0), 20)
    .option("--progress-seconds <seconds>", "how often the progress line is printed", whole(1), 10)
    .addOption(
      new Option("--environments <names>", "comma-separated environments to run (default: every one that runs in process)").env("EDGEGYM_ENVIRONMENTS"),
    )
    .action(async (options) => {
      const clients = awsClients();
      const bucket = parseBucket(options.bucket);
      // Exactly once rests on the bucket refusing a second write of a key: an endpoint that ignores If-None-Match (some
      // emulators) gets the in-process emulation, correct for this worker alone, and a warning.
      const honoured = await conditionalWritesHonoured(clients.s3, bucket.bucket, bucket.prefix);
      if (!honoured)
        process.stderr.write(
          "worker: this bucket ignores conditional writes (If-None-Match); results are kept exactly once only while this is the one worker\n",
        );
      const environments = await loadEnvironments(PROJECT_ROOT, chooseEnvironments(PROJECT_ROOT, options.environments));
      const tally: Tally = { received: 0, done: 0, retried: 0, released: 0, errors: 0 };
      const agent = awsAgent({ clients, queueUrl: options.queueUrl, bucket, environments, conditionalWrites: honoured ? "native" : "emulated" });
      // "done" counts records written, not acked messages: an expand message, or a rollout handed back as a new message, is acked too.
      const ports = countingResults(agent.ports, (rollouts) => {
        tally.done += rollouts;
      });
      const dlqUrl: string | undefined = options.dlqUrl ?? (await deadLetterQueue(clients.sqs, options.queueUrl));
      const stop = new AbortController();
      const onSignal = (name: string) => () => {
        if (stop.signal.aborted) return;
        process.stderr.write(`worker: ${name}: no new work; running rollouts get ${options.graceSeconds} s, then their messages go back\n`);
        stop.abort();
      };
      const onTerm = onSignal("SIGTERM");
      const onInt = onSignal("SIGINT");
      process.once("SIGTERM", onTerm);
      process.once("SIGINT", onInt);

      let inFlight = 0;
      const onProgress = (event: PollEvent) => {
        if (event.type === "received") {
          tally.received += event.ids.length;
          inFlight += event.ids.length;
        } else if (event.type === "acked" || event.type === "retried" || event.type === "released") {
          inFlight -= event.ids.length;
          if (event.type !== "acked") tally[event.type] += event.ids.length;
        } else if (event.type === "error") {
          tally.errors++;
          process.stderr.write(`worker: ${event.stage} error: ${escapeControl(event.error instanceof Error ? event.error.message : String(event.error))}\n`);
        }
      };
      let last = "";
      const ticker = setInterval(() => {
        const line = progressLine(tally, inFlight);
        if (line !== last) process.stderr.write((last = line));
      }, options.progressSeconds * 1000);
      process.stderr.write(
        `worker: ${options.queueUrl}${dlqUrl ? ` (dead letters: ${sqsQueueName(dlqUrl)})` : ""}, ${options.concurrency} at a time, environments: ${ports.environments.join(", ")}\n`,
      );

      const consume = (queueUrl: string, queue: string, concurrency: number, agentPorts: AgentPorts): Promise<PollSummary> =>
        pollQueue({
          client: clients.sqs,
          queueUrl,
          concurrency,
          visibilityTimeout: options.visibilityTimeout,
          graceSeconds: options.graceSeconds,
          waitTimeSeconds: options.waitSeconds,
          signal: stop.signal,
          onProgress,
          // handleWork knows its queues by their logical names.
          handle: (batch) => handleWork({ queue, messages: batch.messages }, agentPorts),
        });
      try {
        await Promise.all([
          consume(options.queueUrl, QUEUES.rollouts, options.concurrency, ports),
          ...(dlqUrl ? [consume(dlqUrl, QUEUES.rolloutsDlq, 2, ports)] : []),
        ]);
      } finally {
        clearInterval(ticker);
        process.off("SIGTERM", onTerm);
        process.off("SIGINT", onInt);
        process.stderr.write(progressLine(tally, inFlight));
        if (tally.released) process.stderr.write(`worker: ${tally.released} message(s) handed back to the queue unfinished\n`);
        clients.sqs.destroy();
        clients.s3.destroy();
      }
      // Rollouts whose messages were handed back may still hold sockets: their work belongs to another consumer now.
      process.exit(process.exitCode ?? 0);
    });
}
