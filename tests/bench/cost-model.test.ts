// The cost arithmetic of `npm run bench`'s cost table: counted operations and published prices to dollars per million
// rollouts, each figure checked by hand below.
import { describe, expect, it } from "vitest";
import { awsCost, cloudflareCost, usageFrom, vmCost } from "../../bench/cost/model.js";
import { PRICES } from "../../bench/cost/prices.js";

// Two rollouts of a job: 2 gateway requests, 1 rollouts message delivered to the agent, 2 results to the writer.
const COUNTS = {
  gateway: {
    counts: { "worker.gateway.fetch": 2, "do.Job.requests": 2, "bucket.put": 2, "queue.edgegym-rollouts.sent": 1, "queue.edgegym-rollouts.units": 1 },
    objects: { Job: 1 },
    spans: { Job: 2 },
  },
  agent: {
    counts: {
      "worker.agent.queue": 1,
      "queue.edgegym-rollouts.delivered": 1,
      "do.Job.requests": 4,
      "do.RolloutRunner.requests": 2,
      "do.RolloutRunner.rows_read": 10,
      "do.RolloutRunner.rows_written": 6,
      "bucket.get": 2,
      "bucket.delete": 5,
      "service.model-proxy.respond": 4,
      "queue.edgegym-results.sent": 2,
      "queue.edgegym-results.units": 2,
    },
    objects: { Job: 1, RolloutRunner: 2 },
    spans: { Job: 3, RolloutRunner: 1.5 },
  },
  writer: {
    counts: { "worker.writer.queue": 1, "queue.edgegym-results.delivered": 2, "do.Job.rows_read": 20, "do.Job.rows_written": 10 },
    objects: { Job: 1 },
    spans: { Job: 2.5 },
  },
};

describe("cost per million rollouts", () => {
  const usage = usageFrom(COUNTS, 2, 2, 10);

  it("bounds the objects' active time by the window", () => {
    const long = { agent: { counts: {}, objects: { RolloutRunner: 2 }, spans: { RolloutRunner: 100 } } };
    expect(usageFrom(long, 2, 1, 10).objectSeconds).toBe(10); // 2 objects × 10 s / 2, not (100 + 2) / 2
  });

  it("turns the counts into what one rollout used", () => {
    expect(usage).toEqual({
      cpuMs: 2,
      workerRequests: 2, // (2 fetch + 1 + 1 queue batches) / 2; service calls are not billed requests
      durableObjectRequests: 4, // (2 + 4 + 2) / 2
      rowsRead: 15, // (10 + 20) / 2
      rowsWritten: 8, // (6 + 10) / 2
      // Spans, the longest any Worker saw per class (Job 3 s, runners 1.5 s), + 1 s for each of the 3 objects: 7.5 s / 2.
      objectSeconds: 3.75,
      queueOperations: 4.5, // (3 writes + 3 reads + 3 deletes) / 2
      classA: 1,
      classB: 1, // deletes are free
      rolloutMessages: 0.5,
      resultMessages: 1,
    });
  });

  it("prices Cloudflare's share of each", () => {
    const cf = cloudflareCost(usage, PRICES);
    expect(cf.parts.worker_requests).toBeCloseTo(0.6, 9); // 2 × $0.30
    expect(cf.parts.worker_cpu).toBeCloseTo(0.04, 9); // 2 ms × $0.02
    expect(cf.parts.do_requests).toBeCloseTo(0.6, 9); // 4 × $0.15
    expect(cf.parts.do_duration).toBeCloseTo(6, 9); // 3.75 s × 0.128 GB × $12.50
    expect(cf.parts.do_rows_read).toBeCloseTo(0.015, 9);
    expect(cf.parts.do_rows_written).toBeCloseTo(8, 9);
    expect(cf.parts.queue_operations).toBeCloseTo(1.8, 9); // 4.5 × $0.40
    expect(cf.parts.r2_class_a).toBeCloseTo(4.5, 9);
    expect(cf.parts.r2_class_b).toBeCloseTo(0.36, 9);
    expect(cf.total).toBeCloseTo(21.915, 9);
  });

  it("maps the same counts onto Lambda, SQS and S3", () => {
    const aws = awsCost(usage, PRICES);
    expect(aws.parts.lambda_requests).toBeCloseTo(0.01, 9); // 0.5 messages / 10 a batch × $0.20
    expect(aws.parts.lambda_duration).toBeCloseTo(0.0266668, 7); // 1 GB × 0.002 s × $0.0000133334 × 1e6
    expect(aws.parts.sqs_requests).toBeCloseTo(0.06, 9); // 0.5 × (send + receive + delete) / 10 × $0.40
    expect(aws.parts.s3_put).toBeCloseTo(15, 9); // (1 put + 1 result's PUT and LIST) × $0.005 per 1,000
    expect(aws.parts.s3_get).toBeCloseTo(0.8, 9); // (1 get + 1 result's manifest GET) × $0.0004 per 1,000
    expect(aws.total).toBeCloseTo(15.8966668, 6);
  });

  it("prices a VM's CPU as its share of the vCPU-hours", () => {
    // 23.4 ms of a 2-vCPU VM at $0.08925 an hour: 23.4 / 7,200,000 × 0.08925 × 1e6.
    expect(vmCost(23.4, PRICES).total).toBeCloseTo(0.29006, 5);
  });

  it("names, for every price, its unit, the date read and the page", () => {
    for (const [name, price] of Object.entries(PRICES)) {
      expect(price.value, name).toBeGreaterThan(0);
      expect(price.read, name).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(price.source, name).toMatch(/^https:\/\//);
      if (!price.confirmed) expect(price.note, name).toMatch(/unconfirmed/);
    }
  });
});
