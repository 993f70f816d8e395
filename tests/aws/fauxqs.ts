// fauxqs (SQS + S3 in one process) for the AWS tests, with SDK clients pointed at it through awsClients().
import type { SQSClient } from "@aws-sdk/client-sqs";
import { type FauxqsServer, startFauxqs } from "fauxqs";
import { awsClients } from "../../storage/aws.js";

export interface LocalAws {
  server: FauxqsServer;
  endpoint: string;
  s3: ReturnType<typeof awsClients>["s3"];
  sqs: SQSClient;
  /** Fresh clients, for a test that adds middleware to them (counting or failing requests). */
  clients(): ReturnType<typeof awsClients>;
  stop(): Promise<void>;
}

export async function startLocalAws(): Promise<LocalAws> {
  const server = await startFauxqs({ port: 0, logger: false });
  const endpoint = `http://127.0.0.1:${server.port}`;
  const made: ReturnType<typeof awsClients>[] = [];
  const clients = () => {
    const pair = awsClients({ AWS_ENDPOINT_URL: endpoint });
    made.push(pair);
    return pair;
  };
  const { s3, sqs } = clients();
  return {
    server,
    endpoint,
    s3,
    sqs,
    clients,
    async stop() {
      for (const pair of made) {
        pair.s3.destroy();
        pair.sqs.destroy();
      }
      await server.stop();
    },
  };
}

let counter = 0;
/** A fresh name per test: one emulator serves the whole file. */
export function unique(prefix: string): string {
  return `${prefix}-${process.pid}-${++counter}`;
}

/** Counts the SDK commands a client sends, by name (what a test cannot see from the emulator). */
export function countCommands(client: { middlewareStack: { add(middleware: any, options: any): void } }): Map<string, number> {
  const counts = new Map<string, number>();
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
      counts.set(context.commandName ?? "?", (counts.get(context.commandName ?? "?") ?? 0) + 1);
      return next(args);
    },
    { step: "initialize", name: `count-${Math.random()}` },
  );
  return counts;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
