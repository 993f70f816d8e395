// The AWS path on this machine: fauxqs (SQS + S3) behind a front that honours conditional writes, the rollouts queue with
// its dead-letter queue, the jobs bucket, and the vLLM simulator as the model unless a real one is named.
import { CreateBucketCommand } from "@aws-sdk/client-s3";
import { startFauxqs } from "fauxqs";
import { createQueueWithDlq } from "../../queues/sqs.js";
import { awsClients } from "../../storage/aws.js";
import { conditionalWritesHonoured } from "../../storage/s3.js";
import { type Simulator, startSimulator } from "../simulator/server.js";
import { startConditionalFront } from "./conditional-s3.js";

export interface LocalAwsOptions {
  /** The endpoint's port on 127.0.0.1 (0 picks a free one); fauxqs itself listens on the next one, which the queue URLs name. */
  port: number;
  /** The rollouts queue's name; its dead-letter queue is `<queue>-dlq`. */
  queue: string;
  bucket: string;
  /** Deliveries of a message before it moves to the dead-letter queue. */
  maxReceiveCount: number;
  /** A real model's base URL (ending in /v1) and name; without it the simulator is started. */
  modelUrl?: string;
  model?: string;
}

export interface LocalAwsStack {
  /** The one endpoint for SQS and S3 (AWS_ENDPOINT_URL). */
  endpoint: string;
  queueUrl: string;
  dlqUrl: string;
  /** `s3://<bucket>`. */
  bucket: string;
  modelUrl: string;
  /** The model's name, when known (the simulator's, or the one given). */
  model?: string;
  simulator?: Simulator;
  stop(): Promise<void>;
}

export async function startLocalAwsStack(options: LocalAwsOptions): Promise<LocalAwsStack> {
  // A fixed port for fauxqs keeps the queue URLs (which name it) the same from one start to the next.
  const fauxqs = await startFauxqs({ port: options.port === 0 ? 0 : options.port + 1, logger: false });
  const stops: (() => Promise<void>)[] = [() => fauxqs.stop()];
  // In the reverse order of starting; a second call finds nothing left to stop.
  const stop = async () => {
    for (const step of stops.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    // fauxqs listens on every interface; the endpoint a user is given is loopback only, and answers 412 as S3 does.
    const front = await startConditionalFront(`http://127.0.0.1:${fauxqs.port}`, options.port);
    stops.push(() => front.close());
    const clients = awsClients({ AWS_ENDPOINT_URL: front.url });
    stops.push(async () => {
      clients.sqs.destroy();
      clients.s3.destroy();
    });
    // Made through the front, as a user would with the AWS CLI: the queue URLs name the endpoint given out.
    const { queueUrl, dlqUrl } = await createQueueWithDlq(clients.sqs, options.queue, options.maxReceiveCount);
    await clients.s3.send(new CreateBucketCommand({ Bucket: options.bucket }));
    if (!(await conditionalWritesHonoured(clients.s3, options.bucket))) throw new Error("the local S3 front does not honour If-None-Match");
    const simulator = options.modelUrl ? undefined : await startSimulator();
    if (simulator) stops.push(() => simulator.close());
    const model = options.model ?? simulator?.model;
    return {
      endpoint: front.url,
      queueUrl,
      dlqUrl,
      bucket: `s3://${options.bucket}`,
      modelUrl: options.modelUrl ?? `${simulator!.url}/v1`,
      ...(model ? { model } : {}),
      ...(simulator ? { simulator } : {}),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
