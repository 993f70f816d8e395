// SST's components replaced by recorders: evaluating infra/ then yields the resource graph a deploy would create.
export interface Recorded {
  kind: string;
  name: string;
  args: Record<string, unknown>;
  /** For Workers: the bindings its transform adds, resolved. */
  bindings?: Record<string, unknown>[];
  /** For Workers: the observability settings its transform sets. */
  observability?: unknown;
}

type Global = Record<string, unknown>;

/** A stand-in for Pulumi outputs: values are plain, `apply` runs at once. */
function output<T>(value: T) {
  return { apply: <R>(f: (v: T) => R) => f(value) };
}

export function installRecorders(stage = "dev"): Recorded[] {
  const created: Recorded[] = [];
  class Secret {
    readonly value: string;
    constructor(name: string, placeholder?: string) {
      created.push({ kind: "Secret", name, args: { placeholder } });
      this.value = `secret:${name}`;
    }
  }
  class Bucket {
    readonly name: string;
    constructor(name: string, args: Record<string, unknown> = {}) {
      created.push({ kind: "Bucket", name, args });
      this.name = `bucket:${name}`;
    }
  }
  class Queue {
    readonly id: string;
    readonly nodes: { queue: { queueName: string } };
    constructor(name: string, args: Record<string, unknown> = {}) {
      created.push({ kind: "Queue", name, args });
      this.id = `queue-id:${name}`;
      this.nodes = { queue: { queueName: `queue:${name}` } };
    }
  }
  class Worker {
    readonly url: string;
    readonly nodes: { worker: { scriptName: string } };
    constructor(name: string, args: Record<string, unknown> & { transform?: { worker?: (a: { bindings?: unknown; observability?: unknown }) => void } }) {
      const probe: { bindings?: unknown; observability?: unknown } = { bindings: [] };
      args.transform?.worker?.(probe);
      created.push({ kind: "Worker", name, args, bindings: probe.bindings as Record<string, unknown>[], observability: probe.observability });
      this.url = `https://${name}.workers.dev`;
      this.nodes = { worker: { scriptName: `script:${name}` } };
    }
  }
  class QueueConsumer {
    constructor(name: string, args: Record<string, unknown>) {
      created.push({ kind: "QueueConsumer", name, args });
    }
  }
  // The AWS side's components (infra/aws.ts): a queue records its subscriptions as their own entries.
  class AwsBucket {
    readonly name: string;
    readonly arn: string;
    constructor(name: string, args: Record<string, unknown> = {}) {
      created.push({ kind: "aws.Bucket", name, args });
      this.name = `bucket:${name}`;
      this.arn = `arn:bucket:${name}`;
    }
  }
  class AwsQueue {
    readonly url: string;
    readonly arn: string;
    constructor(
      readonly name: string,
      args: Record<string, unknown> = {},
    ) {
      created.push({ kind: "aws.Queue", name, args });
      this.url = `https://sqs/${name}`;
      this.arn = `arn:queue:${name}`;
    }
    subscribe(subscriber: unknown, args: Record<string, unknown> = {}) {
      created.push({ kind: "aws.QueueSubscriber", name: this.name, args: { subscriber, ...args } });
    }
  }
  class AwsFunction {
    readonly name: string;
    readonly arn: string;
    constructor(name: string, args: Record<string, unknown>) {
      created.push({ kind: "aws.Function", name, args });
      this.name = `function:${name}`;
      this.arn = `arn:function:${name}`;
    }
  }
  class IamPolicy {
    readonly arn: string;
    constructor(name: string, args: Record<string, unknown>) {
      created.push({ kind: "aws.iam.Policy", name, args });
      this.arn = `arn:policy:${name}`;
    }
  }
  const g = globalThis as unknown as Global;
  g.sst = {
    Secret,
    cloudflare: { Bucket, Queue, Worker, DEFAULT_ACCOUNT_ID: "account" },
    aws: { Bucket: AwsBucket, Queue: AwsQueue, Function: AwsFunction },
  };
  g.cloudflare = { QueueConsumer };
  g.aws = { iam: { Policy: IamPolicy } };
  g.$output = output;
  g.$resolve = (values: unknown[]) => output(values);
  g.$app = { name: "edgegym", stage };
  return created;
}
