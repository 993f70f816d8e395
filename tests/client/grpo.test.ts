// The README's GRPO-style example, run against the local emulation: a batch of prompts × a group size in, records with
// rewards and token ids out, group-relative advantages computed from them. Imports the package as a user would. The
// emulation runs with its defaults (no RETURN_TOKEN_ID_INFORMATION): the example asks for the token ids itself.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DatasetRow, EdgegymClient, type RolloutRecord, type TrainingTurn, trainingTurns } from "edgegym/client";
import type { Local } from "../../local/emulation.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

// ── the example (README, "The TypeScript client") ─────────────────────────────────────────────────────────────
interface Sample {
  task: number;
  advantage: number;
  turns: TrainingTurn[];
}

/** One GRPO step's data: every prompt `groupSize` times, each rollout's advantage against its own group. */
async function grpoBatch(client: EdgegymClient, prompts: DatasetRow[], environment: string, groupSize: number): Promise<Sample[]> {
  const { groups, failures } = await client.batch(prompts, { environment, groupSize, concurrency: 32, returnTokenIds: true });
  if (failures.length) console.warn(`${failures.length} rollouts failed`, failures[0]?.error.message);
  return groups.flatMap((group: RolloutRecord[]) => {
    const rewards = group.map((record) => record.reward);
    const mean = rewards.reduce((a, b) => a + b, 0) / rewards.length;
    const std = Math.sqrt(rewards.reduce((a, r) => a + (r - mean) ** 2, 0) / rewards.length);
    return group.map((record) => ({
      task: record._ng_task_index,
      advantage: (record.reward - mean) / (std + 1e-6),
      // Per model call: prompt_token_ids, generation_token_ids, generation_log_probs, for the policy-gradient loss.
      turns: trainingTurns(record),
    }));
  });
}
// ─────────────────────────────────────────────────────────────────────────────────────────────────────────────

const ENV = "example_session_state_mgmt";
let local: Local;
beforeAll(async () => {
  local = await startTestLocal({ environments: [ENV] });
});
afterAll(async () => {
  await local?.stop();
});

describe("a GRPO-style batch through edgegym/client", () => {
  it("prompts × group size in; every record scored, with token ids per model call; advantages per group", async () => {
    const client = new EdgegymClient({ url: local.url, token: local.token });
    const prompts = fixtureRows(ENV).slice(0, 3) as DatasetRow[];
    const samples = await grpoBatch(client, prompts, ENV, 4);

    expect(samples).toHaveLength(12);
    expect(samples.map((s) => s.task)).toEqual([0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2]);
    for (const sample of samples) {
      expect(Number.isFinite(sample.advantage)).toBe(true);
      expect(sample.turns.length).toBeGreaterThan(0);
      for (const turn of sample.turns) {
        expect(turn.prompt_token_ids.length).toBeGreaterThan(0);
        expect(turn.generation_token_ids.length).toBe(turn.generation_log_probs.length);
      }
    }
    // Advantages are group-relative: each group's sum to zero.
    for (const task of [0, 1, 2]) {
      const sum = samples.filter((s) => s.task === task).reduce((a, s) => a + s.advantage, 0);
      expect(Math.abs(sum)).toBeLessThan(1e-6);
    }
  });

  it("a record without token ids (not asked for) is a clear error from trainingTurns, not an empty loop", async () => {
    const client = new EdgegymClient({ url: local.url, token: local.token });
    const { groups, failures } = await client.batch(fixtureRows(ENV).slice(0, 1) as DatasetRow[], { environment: ENV, groupSize: 2 });
    expect(failures).toEqual([]);
    const record = groups[0]![0]!;
    expect(Number.isFinite(record.reward)).toBe(true);
    expect(() => trainingTurns(record)).toThrow(
      /^trainingTurns: the record \(rollout [\w.-]+\) has no token ids: ask for them with \{ returnTokenIds: true \} on run\/batch/,
    );
    await expect(grpoBatch(client, fixtureRows(ENV).slice(0, 1) as DatasetRow[], ENV, 2)).resolves.toHaveLength(2);
  });

  it("jobs: create from rows, wait, read the records back", async () => {
    const client = new EdgegymClient({ url: local.url, token: local.token });
    const prompts = fixtureRows(ENV).slice(0, 2) as DatasetRow[];
    const job = await client.jobs.create({ rows: prompts }, { environment: ENV, numRepeats: 2 });
    expect(job.counts.total).toBe(4);
    const done = await client.jobs.wait(job.id, { pollMs: 100, timeoutMs: 60_000 });
    expect(done.status).toBe("completed");
    const records = await client.jobs.results(job.id);
    expect(records.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
    // The same rows through an upload: a file of this token, named by its rows_key.
    const file = await client.files.upload("prompts.jsonl", prompts);
    const fromFile = await client.jobs.create({ rowsKey: file.rows_key }, { environment: ENV });
    expect((await client.jobs.wait(fromFile.id, { pollMs: 100, timeoutMs: 60_000 })).counts.total).toBe(2);
  });
});
