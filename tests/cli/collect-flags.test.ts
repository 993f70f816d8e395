// The NeMo Gym workflow end to end on the local emulation: collate → collect (one job, NeMo Gym's flags) → export.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Local } from "../../local/emulation.js";
import { edgegym } from "../helpers/cli.js";
import { FIXTURES, fixtureRows, readJsonl } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";

const ENVIRONMENTS = ["mcqa", "example_single_tool_call", "string_match"];
let local: Local;
const dir = mkdtempSync(path.join(tmpdir(), "edgegym-workflow-"));
const collated = path.join(dir, "collated");
const keys = (records: Record<string, unknown>[]) => records.map((r) => [r._ng_task_index, r._ng_rollout_index]);
const jobsIn = (stderr: string) => [...stderr.matchAll(/job (job_\w+): (\d+) rollouts/g)].map((m) => Number(m[2]));
const json = (file: string) => JSON.parse(readFileSync(file, "utf8"));

beforeAll(async () => {
  local = await startTestLocal({ environments: ENVIRONMENTS });
  const result = await edgegym([
    "dataset",
    "collate",
    "-o",
    collated,
    ...ENVIRONMENTS.flatMap((name) => ["-d", `${name}:train:${path.join(FIXTURES, name, "example.jsonl")}`]),
  ]);
  expect(result.code).toBe(0);
});
afterAll(async () => {
  await local?.stop();
});

function writeRows(name: string, rows: unknown[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

describe("a collated dataset of three environments", () => {
  const output = path.join(dir, "train-rollouts.jsonl");

  it("one job collects it (--split train), with metrics per environment in NeMo Gym's _aggregate_metrics.json", async () => {
    const result = await edgegym(["collect", "--url", local.url, "-i", collated, "--split", "train", "-o", output]);
    expect(result.code).toBe(0);
    expect(jobsIn(result.stderr)).toEqual([15]);
    const records = readJsonl(output);
    expect(keys(records)).toEqual(Array.from({ length: 15 }, (_, i) => [i, 0]));
    expect(records.map((r) => (r.agent_ref as { name: string }).name)).toEqual(ENVIRONMENTS.flatMap((name) => Array(5).fill(`${name}_simple_agent`)));
    const aggregate = json(path.join(dir, "train-rollouts_aggregate_metrics.json"));
    expect(aggregate.map((entry: { agent_ref: { name: string } }) => entry.agent_ref.name).sort()).toEqual(ENVIRONMENTS.map((n) => `${n}_simple_agent`).sort());
    for (const entry of aggregate) {
      expect(Object.keys(entry).sort()).toEqual(["agent_metrics", "agent_ref", "group_level_metrics", "key_metrics"]);
      expect(entry.agent_metrics["mean/reward"]).toBeTypeOf("number");
    }
    const weather = aggregate.find((e: { agent_ref: { name: string } }) => e.agent_ref.name === "example_single_tool_call_simple_agent");
    expect(weather.agent_metrics["mean/reward"]).toBe(1);
    expect(Object.keys(json(path.join(dir, "train-rollouts.metrics.json"))).sort()).toEqual([...ENVIRONMENTS].sort());
    for (const name of ENVIRONMENTS) expect(result.stdout).toContain(name);
  });

  it("SFT export of the collected job: every rollout at reward ≥ 1, its tool calls and answer, record by record", async () => {
    const collectedRecords = readJsonl(output);
    const sft = path.join(dir, "sft.jsonl");
    const result = await edgegym(["export", "--format", "sft", "-i", output, "-o", sft, "--metadata"]);
    expect(result.code).toBe(0);
    const exported = readJsonl(sft);
    const good = collectedRecords.filter((r) => (r.reward as number) >= 1);
    expect(exported).toHaveLength(good.length);
    expect(good.length).toBeGreaterThanOrEqual(5);
    exported.forEach((record, i) => {
      const source = good[i]!;
      const meta = record.metadata as { task_index: number; reward: number };
      expect(meta.task_index).toBe(source._ng_task_index);
      expect(meta.reward).toBe(source.reward);
      const messages = record.messages as {
        role: string;
        content: string | null;
        tool_calls?: { id: string; function: { name: string; arguments: string } }[];
        tool_call_id?: string;
      }[];
      const output = (source.response as { output: Record<string, unknown>[] }).output;
      const calls = output.filter((o) => o.type === "function_call");
      expect(messages.flatMap((m) => m.tool_calls ?? []).map((c) => [c.id, c.function.name, c.function.arguments])).toEqual(
        calls.map((c) => [c.call_id, c.name, c.arguments]),
      );
      const results = output.filter((o) => o.type === "function_call_output");
      expect(messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content])).toEqual(results.map((o) => [o.call_id, o.output]));
      const answer = output.filter((o) => o.type === "message").at(-1) as { content: { text: string }[] };
      expect(messages.at(-1)).toEqual({ role: "assistant", content: answer.content.map((c) => c.text).join("") });
      expect(messages[0]!.role).not.toBe("assistant");
    });
  });

  it("--num-repeats per environment runs one job, with rollout indices per task", async () => {
    const out = path.join(dir, "per-env.jsonl");
    const result = await edgegym(["collect", "--url", local.url, "-i", path.join(collated, "train.jsonl"), "-o", out, "-n", "mcqa=2,_default=1"]);
    expect(result.code).toBe(0);
    expect(jobsIn(result.stderr)).toEqual([20]);
    const expected = [
      ...Array.from({ length: 5 }, (_, t) => [
        [t, 0],
        [t, 1],
      ]).flat(),
      ...Array.from({ length: 10 }, (_, i) => [i + 5, 0]),
    ];
    expect(keys(readJsonl(out))).toEqual(expected);
    const metrics = json(path.join(dir, "per-env.metrics.json"));
    expect(metrics.mcqa.group_level_metrics).toHaveLength(5);
    expect(metrics.string_match.group_level_metrics).toHaveLength(5);
  });

  it("--limit takes the first rows; the output's folder is made", async () => {
    const out = path.join(dir, "new", "folder", "limited.jsonl");
    const result = await edgegym(["collect", "--url", local.url, "-i", path.join(collated, "train.jsonl"), "-o", out, "--limit", "2"]);
    expect(result.code).toBe(0);
    expect(keys(readJsonl(out))).toEqual([
      [0, 0],
      [1, 0],
    ]);
  });
});

describe("identical lines", () => {
  it("are one task, their rollouts numbered on (NeMo Gym's recorded blackjack rollouts are task 0, rollouts 0-4)", async () => {
    const [a, b] = fixtureRows("string_match");
    const input = writeRows("copies.jsonl", [a, a, b, a]);
    const out = path.join(dir, "copies-out.jsonl");
    const result = await edgegym(["collect", "--url", local.url, "-e", "string_match", "-i", input, "-o", out, "-n", "2"]);
    expect(result.code).toBe(0);
    expect(jobsIn(result.stderr)).toEqual([8]);
    expect(keys(readJsonl(out))).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [0, 3],
      [0, 4],
      [0, 5],
      [2, 0],
      [2, 1],
    ]);
  });
});

describe("sampling overrides and seeds reach the model", () => {
  it("--temperature, --top-p, --max-output-tokens and --num-repeats-add-seed are in every request the simulator received", async () => {
    local.simulator!.reset();
    const input = path.join(FIXTURES, "mcqa", "example.jsonl");
    const out = path.join(dir, "sampling.jsonl");
    const args = ["collect", "--url", local.url, "-e", "mcqa", "-i", input, "-o", out, "-n", "3", "--limit", "2"];
    const result = await edgegym([...args, "--num-repeats-add-seed", "--temperature", "0.3", "--top-p", "0.9", "--max-output-tokens", "2048"]);
    expect(result.code).toBe(0);
    expect(jobsIn(result.stderr)).toEqual([6]);
    const requests = local.simulator!.requests as readonly Record<string, unknown>[];
    expect(requests).toHaveLength(6);
    for (const request of requests) expect(request).toMatchObject({ temperature: 0.3, top_p: 0.9, max_tokens: 2048 });
    expect(requests.map((r) => r.seed).sort()).toEqual([0, 0, 1, 1, 2, 2]);
    const records = readJsonl(out);
    expect(keys(records)).toEqual([
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    // The record keeps the params the rollout ran with.
    const seeds = records.map((r) => JSON.parse((r.responses_create_params as { metadata: { extra_body: string } }).metadata.extra_body).seed);
    expect(seeds).toEqual([0, 1, 2, 0, 1, 2]);

    // --direct merges the overrides itself; the same values reach the model.
    local.simulator!.reset();
    const direct = await edgegym([...args, "--direct", "--temperature", "0.7", "--max-output-tokens", "1024"]);
    expect(direct.code).toBe(0);
    expect(local.simulator!.requests).toHaveLength(6);
    for (const request of local.simulator!.requests) expect(request).toMatchObject({ temperature: 0.7, max_tokens: 1024 });
  });
});

describe("prompt templates at collection time, resume", () => {
  it("--prompt-config builds each row's input from its fields; a row with its own input is skipped and named", async () => {
    local.simulator!.reset();
    const template = path.join(dir, "capital.yaml");
    writeFileSync(template, 'system: Answer with \\boxed{{answer}}.\nuser: "What is the capital of {country}?"\n');
    const input = writeRows("raw.jsonl", [
      { country: "France", expected_answer: "Paris", extraction_mode: "boxed", responses_create_params: {} },
      { country: "Italy", expected_answer: "Rome", extraction_mode: "boxed" },
      { ...fixtureRows("string_match")[0] },
    ]);
    const out = path.join(dir, "templated.jsonl");
    const result = await edgegym(["collect", "--url", local.url, "-e", "string_match", "-i", input, "-o", out, "--prompt-config", template]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`${input}:3: responses_create_params.input: the row has its own input and a prompt config was given`);
    const prompts = (local.simulator!.requests as { messages: { role: string; content: string }[] }[]).map((r) => r.messages.map((m) => [m.role, m.content]));
    expect(prompts.sort()).toEqual([
      [
        ["system", "Answer with \\boxed{answer}."],
        ["user", "What is the capital of France?"],
      ],
      [
        ["system", "Answer with \\boxed{answer}."],
        ["user", "What is the capital of Italy?"],
      ],
    ]);
    expect(readJsonl(out).map((r) => r.expected_answer)).toEqual(["Paris", "Rome"]);
  });

  it("--resume keeps the rollouts already written and collects only the missing ones", async () => {
    const input = path.join(FIXTURES, "example_single_tool_call", "example.jsonl");
    const out = path.join(dir, "resumed.jsonl");
    const args = ["collect", "--url", local.url, "-e", "example_single_tool_call", "-i", input, "-o", out, "-n", "2"];
    expect((await edgegym(args)).code).toBe(0);
    const full = readJsonl(out);
    // As if the collection had stopped part-way: two rollouts never arrived.
    const kept = full.filter((r) => !((r._ng_task_index === 1 && r._ng_rollout_index === 1) || (r._ng_task_index === 3 && r._ng_rollout_index === 0)));
    writeFileSync(out, `${kept.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const resumed = await edgegym([...args, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(jobsIn(resumed.stderr)).toEqual([2]);
    expect(resumed.stdout).toContain("(10, 8 from the earlier run)");
    const records = readJsonl(out);
    expect(keys(records)).toEqual(keys(full));
    expect(records.filter((r) => kept.some((k) => k._ng_rollout_id === r._ng_rollout_id))).toHaveLength(8);
    const nothingLeft = await edgegym([...args, "--resume"]);
    expect(nothingLeft.code).toBe(0);
    expect(jobsIn(nothingLeft.stderr)).toEqual([]);
    expect(nothingLeft.stdout).toContain("(10, 10 from the earlier run)");
  });
});

describe("DPO export of a collected job", () => {
  it("pairs the rollout that found the answer with the one that did not, record by record", async () => {
    local.simulator!.reset();
    local.simulator!.script({ content: "\\boxed{Paris}" }, { content: "\\boxed{Lyon}" });
    const input = writeRows("capital.jsonl", [fixtureRows("string_match")[0]]);
    const out = path.join(dir, "dpo-source.jsonl");
    expect((await edgegym(["collect", "--url", local.url, "-e", "string_match", "-i", input, "-o", out, "-n", "2"])).code).toBe(0);
    const records = readJsonl(out);
    expect(records.map((r) => r.reward).sort()).toEqual([0, 1]);
    const dpo = path.join(dir, "dpo.jsonl");
    const result = await edgegym(["export", "--format", "dpo", "-i", out, "-o", dpo, "--metadata"]);
    expect(result.code).toBe(0);
    const [pair, ...rest] = readJsonl(dpo);
    expect(rest).toEqual([]);
    const winner = records.find((r) => r.reward === 1)!;
    const loser = records.find((r) => r.reward === 0)!;
    expect(pair).toEqual({
      prompt: [{ role: "user", content: "What is the capital of France? Put your final answer in \\boxed{}." }],
      chosen: [{ role: "assistant", content: "\\boxed{Paris}" }],
      rejected: [{ role: "assistant", content: "\\boxed{Lyon}" }],
      metadata: {
        environment: "string_match",
        task_index: 0,
        chosen: { environment: "string_match", task_index: 0, rollout_index: winner._ng_rollout_index, reward: 1 },
        rejected: { environment: "string_match", task_index: 0, rollout_index: loser._ng_rollout_index, reward: 0 },
      },
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ format: "dpo", read: 2, written: 1, dpo: { tasks: 1, single_rollout: 0, no_reward_spread: 0 } });
  });
});
