// agent on AWS Lambda: the subscriber of the `rollouts` SQS queue and of its dead-letter queue. The same handleWork as the
// Worker's queue handler; only the ports differ (built by the caller from SQS, S3 and in-process parts).
import type { SQSClient } from "@aws-sdk/client-sqs";
import { QUEUES } from "../../contracts/names.js";
import type { RemoteEnvironmentConfig } from "../../contracts/remote.js";
import { parseRemoteFile } from "../../environments/sdk/remote/config.js";
import { remoteEnvironment } from "../../environments/sdk/remote/in-process.js";
import { sqsQueueName } from "../../queues/sqs.js";
import { handleSqsEvent, type SqsBatchResponse } from "../../queues/sqs-consumer.js";
import { handleWork } from "./consumer.js";
import type { AgentPorts } from "./ports.js";

export interface LambdaAgent {
  ports: AgentPorts;
  sqs: SQSClient;
  /** The `rollouts` queue's URL. */
  queueUrl: string;
  /** Its dead-letter queue's URL: a batch from it becomes failure records (the Worker's `rollouts-dlq` consumer). */
  dlqUrl?: string;
  /** The queue's visibility timeout: a running rollout's message is hidden again every half of it (see handleSqsEvent). */
  visibilityTimeout?: number;
  onError?: (error: unknown) => void;
  /** Remote NeMo Gym servers (issue 24) run beside the in-process environments; their auth secrets read from `secrets`. */
  remotes?: { configs: readonly RemoteEnvironmentConfig[]; secrets: Record<string, unknown> };
}

/**
 * The agent's ports with remote environments added: each an in-process RemoteClient (environments/sdk/remote/
 * in-process.ts) with its sessions in a Map, listed and resolved like the in-process native ones.
 */
export function withRemotes(ports: AgentPorts, configs: readonly RemoteEnvironmentConfig[], secrets: Record<string, unknown>): AgentPorts {
  if (!configs.length) return ports;
  const remotes = new Map(configs.map((config) => [config.name, remoteEnvironment(config, { secrets })]));
  const clash = configs.find((config) => ports.environments.includes(config.name));
  if (clash) throw new Error(`remote environment ${clash.name} has a bundled environment's name`);
  const environments = [...ports.environments, ...remotes.keys()];
  return {
    ...ports,
    config: { ...ports.config, ENVIRONMENTS: environments },
    environments,
    environment: (name) => remotes.get(name) ?? ports.environment(name),
  };
}

/** The remotes of a Lambda: EDGEGYM_REMOTES holds edgegym.remote.json's text (the deployment sets it); none when unset. */
export function lambdaRemotes(env: Record<string, string | undefined>): LambdaAgent["remotes"] {
  const text = env.EDGEGYM_REMOTES;
  if (!text) return undefined;
  return { configs: parseRemoteFile(text, "EDGEGYM_REMOTES").map((d) => d.config), secrets: env };
}

/**
 * The Lambda handler: each SQS batch through handleWork, rollouts run concurrently, and the partial batch response lists
 * only the messages to deliver again (the event source mapping needs `ReportBatchItemFailures`). `setup` runs once per
 * Lambda instance, on its first event; a failed setup is tried again on the next.
 */
export function lambdaHandler(setup: () => LambdaAgent | Promise<LambdaAgent>): (event: unknown) => Promise<SqsBatchResponse> {
  let ready: Promise<LambdaAgent> | undefined;
  return async (event) => {
    // Remote environments' clients are made once per instance, with the rest: their pools' health lasts between events.
    ready ??= Promise.resolve()
      .then(setup)
      .then((agent) => (agent.remotes ? { ...agent, ports: withRemotes(agent.ports, agent.remotes.configs, agent.remotes.secrets) } : agent));
    const agent = await ready.catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    const dlq = agent.dlqUrl ? sqsQueueName(agent.dlqUrl) : undefined;
    const fromDlq = (arn: string) => dlq !== undefined && sqsQueueName(arn) === dlq;
    return handleSqsEvent(
      event,
      // handleWork knows its queues by their logical names; SQS's are SST's per stage.
      (batch) => handleWork({ queue: batch.queue === dlq ? QUEUES.rolloutsDlq : QUEUES.rollouts, messages: batch.messages }, agent.ports),
      {
        client: agent.sqs,
        // The function is subscribed to these two queues only.
        queueUrl: (arn) => (fromDlq(arn) ? agent.dlqUrl! : agent.queueUrl),
        ...(agent.visibilityTimeout ? { visibilityTimeout: agent.visibilityTimeout } : {}),
        ...(agent.onError ? { onError: agent.onError } : {}),
      },
    );
  };
}
