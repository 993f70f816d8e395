// Each provider's published prices the bench's cost figures use (USD, list prices, free tiers and included usage excluded),
// with the unit, the date read and the page; "confirmed: false" where the page itself could not be read offline.

export interface Price {
  value: number;
  unit: string;
  /** When the figure was read (the stored copy of the page searched offline). */
  read: string;
  source: string;
  /** false: taken from a secondary page or memory, not the provider's own page; the note says what. */
  confirmed: boolean;
  note?: string;
}

const READ = "2026-11-28";

export const PRICES = {
  workersRequest: {
    value: 0.3 / 1e6,
    unit: "USD per request",
    read: READ,
    source: "https://developers.cloudflare.com/workers/platform/pricing/",
    confirmed: true,
    note: "Standard usage model: $0.30 per additional million; inbound requests only (subrequests and service-binding calls are not billed)",
  },
  workersCpuMs: {
    value: 0.02 / 1e6,
    unit: "USD per CPU millisecond",
    read: READ,
    source: "https://developers.cloudflare.com/workers/platform/pricing/",
    confirmed: true,
    note: "$0.02 per additional million CPU milliseconds",
  },
  durableObjectRequest: {
    value: 0.15 / 1e6,
    unit: "USD per request",
    read: READ,
    source: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
    confirmed: true,
    note: "every RPC method call on a stub is one request; alarms too",
  },
  durableObjectGbSecond: {
    value: 12.5 / 1e6,
    unit: "USD per GB-second (128 MB per object, wall-clock while active)",
    read: READ,
    source: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
    confirmed: true,
  },
  durableObjectRowRead: {
    value: 0.001 / 1e6,
    unit: "USD per SQLite row read",
    read: READ,
    source: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
    confirmed: false,
    note: "unconfirmed offline: the stored copy of the page ends before its storage table; D1's published rate (developers.cloudflare.com/d1/platform/pricing/), which SQLite-backed Durable Objects share",
  },
  durableObjectRowWritten: {
    value: 1.0 / 1e6,
    unit: "USD per SQLite row written",
    read: READ,
    source: "https://developers.cloudflare.com/durable-objects/platform/pricing/",
    confirmed: false,
    note: "unconfirmed offline: as rows read (D1's published $1.00 per million rows written)",
  },
  queueOperation: {
    value: 0.4 / 1e6,
    unit: "USD per operation (a write, read or delete of up to 64 KB)",
    read: READ,
    source: "https://developers.cloudflare.com/queues/platform/pricing/",
    confirmed: false,
    note: "unconfirmed offline: a third-party transcription of the page ($0.40 per million operations)",
  },
  r2ClassA: {
    value: 4.5 / 1e6,
    unit: "USD per Class A operation (put, list, multipart)",
    read: READ,
    source: "https://developers.cloudflare.com/r2/pricing/",
    confirmed: true,
  },
  r2ClassB: {
    value: 0.36 / 1e6,
    unit: "USD per Class B operation (get, head)",
    read: READ,
    source: "https://developers.cloudflare.com/r2/pricing/",
    confirmed: true,
  },
  lambdaRequest: {
    value: 0.2 / 1e6,
    unit: "USD per invocation",
    read: READ,
    source: "https://aws.amazon.com/lambda/pricing/",
    confirmed: false,
    note: "unconfirmed offline: secondary pages quoting us-east-1 ($0.20 per million requests)",
  },
  lambdaArmGbSecond: {
    value: 0.0000133334,
    unit: "USD per GB-second, arm64 (infra/aws.ts deploys arm64), first 7.5 billion GB-s a month",
    read: READ,
    source: "https://aws.amazon.com/lambda/pricing/",
    confirmed: false,
    note: "unconfirmed offline: secondary pages quoting us-east-1",
  },
  lambdaX86GbSecond: {
    value: 0.0000166667,
    unit: "USD per GB-second, x86_64, first 6 billion GB-s a month",
    read: READ,
    source: "https://aws.amazon.com/lambda/pricing/",
    confirmed: false,
    note: "unconfirmed offline: secondary pages quoting us-east-1",
  },
  sqsRequest: {
    value: 0.4 / 1e6,
    unit: "USD per SQS standard request (each 64 KB chunk; a batch of up to 10 is one request)",
    read: READ,
    source: "https://aws.amazon.com/sqs/pricing/",
    confirmed: false,
    note: "unconfirmed offline: secondary pages quoting us-east-1, first 100 billion requests a month",
  },
  s3Put: {
    value: 0.005 / 1000,
    unit: "USD per S3 Standard PUT, COPY, POST or LIST",
    read: READ,
    source: "https://aws.amazon.com/s3/pricing/",
    confirmed: false,
    note: "unconfirmed offline: secondary pages quoting us-east-1",
  },
  s3Get: {
    value: 0.0004 / 1000,
    unit: "USD per S3 Standard GET, SELECT or HEAD",
    read: READ,
    source: "https://aws.amazon.com/s3/pricing/",
    confirmed: false,
    note: "unconfirmed offline: secondary pages quoting us-east-1",
  },
  vmHour: {
    value: 0.08925,
    unit: "USD per hour, c7i.large on-demand Linux (2 vCPUs, 4 GiB), us-east-1",
    read: READ,
    source: "https://aws.amazon.com/ec2/pricing/on-demand/",
    confirmed: false,
    note: "unconfirmed: no copy of the page was found offline; the figure is the rate last known to the author, not read on this date",
  },
} satisfies Record<string, Price>;

export type Prices = { [K in keyof typeof PRICES]: Price };

/** The VM's vCPUs: the CPU a rollout uses is billed as its share of them (the VM kept busy). */
export const VM_VCPUS = 2;
/** A Durable Object is billed for 128 MB while active. */
export const DURABLE_OBJECT_GB = 0.128;
/** The agent Lambda's memory (infra/aws.ts) and its SQS batch size. */
export const LAMBDA_GB = 1;
export const SQS_BATCH = 10;
