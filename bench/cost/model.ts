// Cost per million rollouts from counted operations and published prices: Cloudflare (measured counts), AWS (the same
// counts mapped onto Lambda, SQS and S3) and a VM (CPU per rollout as a share of its vCPUs). Pure arithmetic, no I/O.
import type { WorkerCounts } from "../../local/counting.js";
import { DURABLE_OBJECT_GB, LAMBDA_GB, type Prices, SQS_BATCH, VM_VCPUS } from "./prices.js";

/** What one rollout used, on average over a measured window. */
export interface Usage {
  /** CPU of every edgegym process (workerd and the emulation's Node process), ms: not split by Worker. */
  cpuMs: number;
  /** Billed Worker invocations: inbound HTTP requests and queue consumer batches (service-binding calls are not billed). */
  workerRequests: number;
  durableObjectRequests: number;
  rowsRead: number;
  rowsWritten: number;
  /**
   * Durable Objects' active seconds, estimated: each object from its first call to its last (seen by the callers), plus
   * a second per object for the call it ends with. The runtime's own active time is not observable locally.
   */
  objectSeconds: number;
  /** Queue operations: each message's writes (64 KB units), reads (deliveries) and deletes (deliveries not retried). */
  queueOperations: number;
  classA: number;
  classB: number;
  /** Messages the rollouts queue delivered, and result messages sent (the AWS mapping uses both). */
  rolloutMessages: number;
  resultMessages: number;
}

/** What an object is counted active after its last call seen (its own work and the runtime's idle grace): an assumption. */
export const OBJECT_TAIL_SECONDS = 1;
const CLASS_A = ["put", "list", "createMultipartUpload", "uploadPart", "completeMultipartUpload"];
const CLASS_B = ["get", "head"];

/** Per-rollout usage from every Worker's counts over a window of `rollouts` rollouts. */
export function usageFrom(all: Record<string, WorkerCounts>, rollouts: number, cpuMs: number, seconds: number): Usage {
  const totals = new Map<string, number>();
  const objects = new Map<string, number>();
  const spans = new Map<string, number>();
  for (const worker of Object.values(all)) {
    for (const [key, n] of Object.entries(worker.counts)) totals.set(key, (totals.get(key) ?? 0) + n);
    // The same object is seen by several Workers (the Job by gateway, agent and writer): the most any one saw, per class.
    for (const [cls, n] of Object.entries(worker.objects)) objects.set(cls, Math.max(objects.get(cls) ?? 0, n));
    for (const [cls, n] of Object.entries(worker.spans ?? {})) spans.set(cls, Math.max(spans.get(cls) ?? 0, n));
  }
  const total = (map: Map<string, number>) => [...map.values()].reduce((a, b) => a + b, 0);
  const sum = (test: (key: string) => boolean) => [...totals].reduce((s, [key, n]) => (test(key) ? s + n : s), 0);
  const ends = (suffix: string) => (key: string) => key.endsWith(suffix);
  const sent = sum((k) => k.startsWith("queue.") && k.endsWith(".sent"));
  const unitsSent = sum((k) => k.startsWith("queue.") && k.endsWith(".units"));
  const perMessage = sent > 0 ? unitsSent / sent : 1;
  const delivered = sum((k) => k.startsWith("queue.") && k.endsWith(".delivered"));
  const retried = sum((k) => k.startsWith("queue.") && k.endsWith(".retried"));
  return {
    cpuMs,
    workerRequests: sum((k) => k.startsWith("worker.")) / rollouts,
    durableObjectRequests: sum((k) => k.startsWith("do.") && k.endsWith(".requests")) / rollouts,
    rowsRead: (sum(ends(".rows_read")) + sum(ends(".kv_get"))) / rollouts,
    rowsWritten: (sum(ends(".rows_written")) + sum(ends(".kv_put")) + sum(ends(".kv_delete"))) / rollouts,
    objectSeconds: Math.min(total(spans) + total(objects) * OBJECT_TAIL_SECONDS, total(objects) * seconds) / rollouts,
    queueOperations: (unitsSent + delivered * perMessage + (delivered - retried) * perMessage) / rollouts,
    classA: sum((k) => CLASS_A.some((op) => k === `bucket.${op}`)) / rollouts,
    classB: sum((k) => CLASS_B.some((op) => k === `bucket.${op}`)) / rollouts,
    rolloutMessages: sum((k) => k.endsWith("rollouts.delivered")) / rollouts,
    resultMessages: sum((k) => k.endsWith("results.sent")) / rollouts,
  };
}

/** A provider's cost per million rollouts, and its parts. */
export interface Cost {
  total: number;
  parts: Record<string, number>;
}

const MILLION = 1e6;

function cost(parts: Record<string, number>): Cost {
  const scaled = Object.fromEntries(Object.entries(parts).map(([k, v]) => [k, v * MILLION]));
  return { total: Object.values(scaled).reduce((a, b) => a + b, 0), parts: scaled };
}

export function cloudflareCost(u: Usage, p: Prices): Cost {
  return cost({
    worker_requests: u.workerRequests * p.workersRequest.value,
    worker_cpu: u.cpuMs * p.workersCpuMs.value,
    do_requests: u.durableObjectRequests * p.durableObjectRequest.value,
    do_duration: u.objectSeconds * DURABLE_OBJECT_GB * p.durableObjectGbSecond.value,
    do_rows_read: u.rowsRead * p.durableObjectRowRead.value,
    do_rows_written: u.rowsWritten * p.durableObjectRowWritten.value,
    queue_operations: u.queueOperations * p.queueOperation.value,
    r2_class_a: u.classA * p.r2ClassA.value,
    r2_class_b: u.classB * p.r2ClassB.value,
  });
}

/**
 * AWS: the agent Lambda (arm64, 1 GB) takes the rollouts queue's messages 10 at a time and runs them for the rollouts'
 * CPU time (a zero-latency model; a real model's wait is billed too); SQS sends, receives and deletes in batches of 10;
 * S3 takes the bucket's operations plus, per result, the AWS ledger's GET, PUT and LIST (it lives in the bucket, not in
 * Durable Objects). Derived from the Cloudflare run's counts and the code, not measured on AWS.
 */
export function awsCost(u: Usage, p: Prices): Cost {
  const invocations = u.rolloutMessages / SQS_BATCH;
  return cost({
    lambda_requests: invocations * p.lambdaRequest.value,
    lambda_duration: LAMBDA_GB * (u.cpuMs / 1000) * p.lambdaArmGbSecond.value,
    sqs_requests: ((u.rolloutMessages * 3) / SQS_BATCH) * p.sqsRequest.value,
    // Per result, the bucket ledger (ledger/bucket-jobs.ts) writes its record (PUT), lists its task's results (LIST) and
    // reads once more (GET); the per-task markers, shared by a task's repeats, are left out.
    s3_put: (u.classA + 2 * u.resultMessages) * p.s3Put.value,
    s3_get: (u.classB + u.resultMessages) * p.s3Get.value,
  });
}

/** A VM kept busy: the rollout's CPU as its share of the VM's vCPU-hours. */
export function vmCost(cpuMs: number, p: Prices, vcpus: number = VM_VCPUS): Cost {
  return cost({ vm_cpu: (cpuMs / (vcpus * 3_600_000)) * p.vmHour.value });
}
