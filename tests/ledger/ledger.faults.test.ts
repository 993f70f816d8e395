// The job ledger's contract when things go wrong, on both ledgers: a resume whose messages cannot be sent leaves the job as
// it was; a stalled job (nothing recorded for STALL_SECONDS) heals, then gives up on what is missing as dead_letter failures.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { JobConfig, JobInfo } from "../../contracts/jobs.js";
import { exampleFile } from "../aws/stack.js";
import { ENV, entry, type Harness, LEDGERS, startHarness, until } from "./harness.js";

const rows = readFileSync(exampleFile(ENV), "utf8").trim().split("\n");

describe("a resume whose messages cannot be sent", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ CHAOS_QUEUE_SEND_FAILURE_RATE: "1" });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it.each(LEDGERS)("%s: answers 503 resume_failed and the job is unchanged, its failures kept", async (ledger) => {
    // Made by the ledger itself: the ingest's own expand messages would fail on this queue too.
    const id = `job_faults${ledger}`;
    const config: JobConfig = { id, environment: ENV, num_repeats: 1, tasks: [0, 1], chunk_keys: [`jobs/${id}/inputs/000000.jsonl`], created_at: Date.now() };
    await h.call(ledger, "create", config);
    await h.call(ledger, "record", id, [entry(id, 0, 0, "rollout"), entry(id, 1, 0, "failure")]);
    const before = await until(h, ledger, id, "completed");
    expect(before).toMatchObject({ status: "completed", counts: { done: 1, failed: 1 } });

    const answer = await h.call(ledger, "resume", id);
    expect(answer).toMatchObject({ ok: false, error: { status: 503, code: "resume_failed", message: expect.stringContaining(id) } });
    expect(await until(h, ledger, id, "completed")).toMatchObject({ status: "completed", counts: { done: 1, failed: 1 } });
    const failures = (await h.call<string>(ledger, "lines", id, "failure")).trim().split("\n");
    expect(failures.map((line) => JSON.parse(line)._ng_task_index)).toEqual([1]);
  });
});

describe("a stalled job", () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ STALL_SECONDS: "0.5", MAX_HEALS: "1" });
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("object: re-enqueues what is missing once, then writes it as dead_letter failures and completes", async () => {
    const { body } = await h.create("object", rows.slice(0, 2), { num_repeats: 1 });
    const id = (body as unknown as JobInfo).id;
    await h.call("object", "record", id, [entry(id, 0, 0, "rollout")]);
    const sent = await h.sent(id, 2);
    expect(sent.map((m) => [m.kind, m.attempt, m.kind === "expand" ? m.only : undefined])).toEqual([
      ["expand", 1, undefined],
      ["expand", 2, [[1, 0]]],
    ]);
    const done = await until(h, "object", id, "completed");
    expect(done).toMatchObject({ status: "completed", heals: 1, counts: { done: 1, failed: 1, failed_by_class: { dead_letter: 1 } } });
    expect(done.stalls?.map((s) => s.action)).toEqual(["healed", "gave_up"]);
  });

  it("bucket: has no stall watch (SQS keeps each message until it is run or dead-lettered: README, Jobs on AWS)", async () => {
    const { body } = await h.create("bucket", rows.slice(0, 2), { num_repeats: 1 });
    const id = (body as unknown as JobInfo).id;
    await h.call("bucket", "record", id, [entry(id, 0, 0, "rollout")]);
    expect(await h.sent(id)).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await h.sent(id, 0)).toEqual([]);
    expect(await h.call("bucket", "info", id)).toMatchObject({ status: "running", counts: { done: 1, failed: 0 } });
  });
});
