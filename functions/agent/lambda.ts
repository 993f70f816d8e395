// agent on AWS Lambda: the subscriber of the `rollouts` SQS queue and of its dead-letter queue. The same handleWork as the
// Worker's queue handler; only the ports differ (built by the caller from SQS, S3 and in-process parts).
import type { SQSClient } from "@aws-sdk/client-sqs";
import { QUEUES } from "../../contracts/names.js";
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
}

/**
 * The Lambda handler: each SQS batch through handleWork, rollouts run concurrently, and the partial batch response lists
 * only the messages to deliver again (the event source mapping needs `ReportBatchItemFailures`). `setup` runs once per
 * Lambda instance, on its first event; a failed setup is tried again on the next.
 */
export function lambdaHandler(setup: () => LambdaAgent | Promise<LambdaAgent>): (event: unknown) => Promise<SqsBatchResponse> {
  let ready: Promise<LambdaAgent> | undefined;
  return async (event) => {
    ready ??= Promise.resolve().then(setup);
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
