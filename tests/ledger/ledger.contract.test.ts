// The job ledger's contract, run against both ledgers in workerd: the Job Durable Object (Cloudflare) and the bucket
// alone (AWS). Every behaviour a job has is asserted on each; where the bucket differs by design (running counts, the
// stall watch) the difference itself is asserted, as the README's "Jobs on AWS" says it.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobInfo, Resumed } from "../../contracts/jobs.js";
import type { RpcResult } from "../../contracts/rpc.js";
import { ENV, entry, type Harness, LEDGERS, startHarness, until } from "./harness.js";
import { exampleFile } from "../aws/stack.js";

const rows = readFileSync(exampleFile(ENV), "utf8").trim().split("\n");
/** A row with its own task index. */
const withTask = (line: string, task: number) => JSON.stringify({ ...JSON.parse(line), _ng_task_index: task });

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.stop();
});

describe.each(LEDGERS)("the %s ledger", (ledger) => {
  async function job(lines = rows.slice(0, 2), numRepeats = 2): Promise<JobInfo> {
    const { status, body } = await h.create(ledger, lines, { num_repeats: numRepeats });
    expect(status).toBe(201);
    return body as unknown as JobInfo;
  }
  const lines = async (id: string, kind: "rollout" | "failure") =>
    (await h.call<string>(ledger, "lines", id, kind))
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("creates a job from its rows, once: every rollout queued, one expand message per inputs chunk", async () => {
    const created = await job();
    expect(created).toMatchObject({ status: "running", environment: ENV, num_repeats: 2, tasks: 2, counts: { total: 4, queued: 4, done: 0, failed: 0 } });
    expect(await h.sent(created.id)).toEqual([expect.objectContaining({ kind: "expand", job_id: created.id, attempt: 1 })]);
    expect(await h.call(ledger, "info", "job_unknown")).toBeNull();
    expect(await h.call(ledger, "wanted", created.id)).toEqual({ numRepeats: 2 });
  });

  it("records its owner, indexed once however often create is repeated; the owner's open count drops once it ends", async () => {
    const owner = `team-${ledger}`;
    const created = (await h.create(ledger, rows.slice(0, 2), { num_repeats: 2, owner })).body as unknown as JobInfo;
    expect(created.owner).toBe(owner);
    expect(await h.call(ledger, "info", created.id)).toMatchObject({ owner });
    // A create repeated (a retry after a lost answer) indexes the same job once.
    const config = { id: `${created.id}x`, owner, num_repeats: 1, tasks: [0], chunk_keys: [`jobs/${created.id}x/inputs/000000.jsonl`], created_at: Date.now() };
    await h.call(ledger, "create", config);
    await h.call(ledger, "create", config);
    expect(await h.owners(ledger, owner)).toEqual({ ids: [config.id, created.id], open: { jobs: 2, rollouts: 5 } });
    expect(await h.owners(ledger, "someone-else")).toEqual({ ids: [], open: { jobs: 0, rollouts: 0 } });
    await h.call(ledger, "cancel", config.id);
    expect((await h.owners(ledger, owner)).open).toEqual({ jobs: 1, rollouts: 4 });
    // A job made without an owner is in no tenant's index.
    const ownerless = await job();
    expect(ownerless.owner).toBeUndefined();
    expect((await h.owners(ledger, owner)).ids).not.toContain(ownerless.id);
  });

  it("records each result once, however often it is sent; completes with metrics when the last lands", async () => {
    const { id } = await job();
    expect(await h.call(ledger, "record", id, [entry(id, 0, 0, "rollout"), entry(id, 0, 0, "rollout")])).toEqual({ written: 1, duplicates: 1 });
    expect(await h.call(ledger, "record", id, [entry(id, 0, 0, "rollout", 0)])).toEqual({ written: 0, duplicates: 1 });
    await h.call(ledger, "record", id, [entry(id, 1, 1, "rollout"), entry(id, 0, 1, "rollout", 0)]);
    expect(await h.call(ledger, "info", id)).toMatchObject({ status: "running", counts: { done: 3, failed: 0, queued: 1 } });
    await h.call(ledger, "record", id, [entry(id, 1, 0, "failure")]);
    const done = await until(h, ledger, id, "completed");
    expect(done).toMatchObject({ status: "completed", progress: 1, counts: { total: 4, done: 3, failed: 1, queued: 0 } });
    expect(done.metrics?.[ENV]?.agent_metrics?.["mean/reward"]).toBeCloseTo(2 / 3);
    // In task-then-repeat order, whatever order they were recorded in.
    expect((await lines(id, "rollout")).map((r) => [r._ng_task_index, r._ng_rollout_index, r.reward])).toEqual([
      [0, 0, 1],
      [0, 1, 0],
      [1, 1, 1],
    ]);
    expect((await lines(id, "failure")).map((r) => [r._ng_task_index, r._ng_rollout_index, r.failure_class])).toEqual([[1, 0, "model_error"]]);
  });

  it("a dead letter becomes a dead_letter failure only for the rollouts without a result", async () => {
    const { id } = await job();
    await h.call(ledger, "record", id, [entry(id, 0, 0, "rollout")]);
    const pairs = [
      [0, 0],
      [0, 1],
      [1, 0],
    ];
    const failure = { failure_class: "dead_letter", message: "the message was dead-lettered" };
    expect(await h.call(ledger, "abandon", id, { pairs }, failure)).toEqual({ written: 2 });
    expect(await h.call(ledger, "abandon", id, { pairs }, failure)).toEqual({ written: 0 });
    expect((await lines(id, "failure")).map((r) => [r._ng_task_index, r._ng_rollout_index, r.failure_class])).toEqual([
      [0, 1, "dead_letter"],
      [1, 0, "dead_letter"],
    ]);
    expect(await h.call(ledger, "info", id)).toMatchObject({ counts: { done: 1, failed: 2 } });
  });

  it("cancel: wanted() says drop the work, the status says cancelled, and nothing is queued", async () => {
    const { id } = await job(rows.slice(0, 1), 1);
    expect(await h.call(ledger, "cancel", id)).toMatchObject({ status: "cancelled", counts: { queued: 0 } });
    expect(await h.call(ledger, "wanted", id)).toBeNull();
    expect(await h.call(ledger, "started", id, 1)).toBeNull();
    expect(await h.call(ledger, "wanted", "job_unknown")).toBeNull();
    expect(await h.call(ledger, "cancel", "job_unknown")).toBeNull();
  });

  it("resume forgets failures and re-enqueues what has no scored rollout; only_missing keeps the failures", async () => {
    const { id } = await job();
    await h.sent(id);
    await h.call(ledger, "record", id, [entry(id, 0, 0, "rollout"), entry(id, 0, 1, "failure"), entry(id, 1, 0, "rollout")]);
    await h.call(ledger, "cancel", id);

    const kept = await h.call<RpcResult<Resumed>>(ledger, "resume", id, { onlyMissing: true });
    expect(kept).toMatchObject({ ok: true, value: { resumed: 1, info: { status: "running", counts: { done: 2, failed: 1 } } } });
    expect(await h.sent(id)).toEqual([expect.objectContaining({ kind: "expand", job_id: id, only: [[1, 1]], attempt: 2 })]);
    expect(await h.call(ledger, "wanted", id)).toEqual({ numRepeats: 2 });

    const rerun = await h.call<RpcResult<Resumed>>(ledger, "resume", id);
    expect(rerun).toMatchObject({ ok: true, value: { resumed: 2, info: { status: "running", counts: { done: 2, failed: 0 } } } });
    const sent = await h.sent(id);
    expect(sent.flatMap((m) => (m.kind === "expand" ? (m.only ?? []) : []))).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(await lines(id, "failure")).toEqual([]);
    await h.call(ledger, "record", id, [entry(id, 0, 1, "rollout"), entry(id, 1, 1, "rollout")]);
    expect(await until(h, ledger, id, "completed")).toMatchObject({ counts: { done: 4, failed: 0 } });
    expect(await h.call(ledger, "resume", id)).toMatchObject({ ok: true, value: { resumed: 0 } });
    expect(await h.call(ledger, "resume", "job_unknown")).toBeNull();
  });

  it("running: started rollouts are counted where the ledger can see them (the Job object), never on the bucket", async () => {
    const { id } = await job();
    expect(await h.call(ledger, "started", id, 3)).toEqual({ numRepeats: 2 });
    const { counts } = await h.call<JobInfo>(ledger, "info", id);
    // The bucket path has no object that sees every start (README, "Jobs on AWS"): its open rollouts are all "queued".
    expect(counts).toEqual(expect.objectContaining(ledger === "object" ? { running: 3, queued: 1 } : { running: 0, queued: 4 }));
  });

  it("a job's own task indices are kept; two rows with one index are refused by line and field, and nothing is created", async () => {
    const { id, tasks } = await job([withTask(rows[0]!, 7), withTask(rows[1]!, 3)], 1);
    expect(tasks).toBe(2);
    await h.call(ledger, "record", id, [entry(id, 3, 0, "rollout"), entry(id, 7, 0, "rollout")]);
    // In task-index order, not the rows' order.
    expect((await lines(id, "rollout")).map((r) => r._ng_task_index)).toEqual([3, 7]);

    const refused = await h.create(ledger, [withTask(rows[0]!, 5), withTask(rows[1]!, 5)]);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: "invalid_rows", issues: [{ line: 2, path: ["_ng_task_index"], message: expect.stringMatching(/task index 5 is already line 1's/) }] },
    });
  });

  it("caps: rows × num_repeats over MAX_JOB_ROLLOUTS is refused naming the field; a 65,536-rollout job is created and counted", async () => {
    const over = await h.create(ledger, rows.slice(0, 3), { num_repeats: 2, caps: { MAX_JOB_ROLLOUTS: 5 } });
    expect(over).toMatchObject({ status: 400, body: { error: { code: "job_too_large", issues: [{ path: ["rows"] }] } } });

    const many = Array.from({ length: 1024 }, (_, i) => rows[i % rows.length]!);
    const { status, body } = await h.create(ledger, many, { num_repeats: 64 });
    expect(status).toBe(201);
    const big = body as unknown as JobInfo;
    expect(big.counts).toEqual(expect.objectContaining({ total: 65_536, done: 0, failed: 0 }));
    expect(await h.sent(big.id, 11)).toHaveLength(11); // 1,024 rows in inputs chunks of 100
    await h.call(ledger, "record", big.id, [entry(big.id, 1023, 63, "rollout"), entry(big.id, 0, 0, "failure")]);
    expect(await h.call(ledger, "info", big.id)).toMatchObject({ status: "running", counts: { total: 65_536, done: 1, failed: 1 } });
  });
});
