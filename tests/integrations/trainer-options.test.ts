// What a trainer adds to /run and to a job, end to end in workerd: its policy model and token ids, NeMo Gym's ids and
// failure fields, discovery straight from the gateway, and /aggregate_metrics routed by agent_ref.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Local } from "../../local/emulation.js";
import { type Simulator, startSimulator } from "../../local/simulator/server.js";
import { fixtureRows } from "../helpers/fixtures.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { gatewayFetch, postJson, startTestLocal } from "../helpers/local.js";

const POLICY = "trainer/policy-step-7";
let local: Local;
let policy: Simulator;
beforeAll(async () => {
  local = await startTestLocal({
    environments: ["example_session_state_mgmt", "example_single_tool_call"],
    vars: { agent: { RETRY_BASE_SECONDS: "0", MAX_ATTEMPTS: "1" }, modelProxy: { MODEL_MAX_RETRIES: "0" } },
  });
  policy = await startSimulator({ model: POLICY });
});
afterAll(async () => {
  await policy?.close();
  await local?.stop();
});
beforeEach(() => {
  local.simulator!.reset();
  policy.reset();
});

const counterRow = () => ({ ...fixtureRows("example_session_state_mgmt")[0]!, agent_ref: { name: "example_session_state_mgmt_simple_agent" } });
const policyQuery = () => `policy_base_url=${encodeURIComponent(`${policy.url}/v1`)}&policy_model_name=${encodeURIComponent(POLICY)}`;

describe("/run", () => {
  it("runs on the policy model the caller names, with token ids only when asked", async () => {
    const named = await postJson(`${local.url}/run?${policyQuery()}&return_token_ids=true`, counterRow());
    expect(named.status).toBe(200);
    expect(named.body.response.model).toBe(POLICY);
    const withIds = (named.body.response.output as { generation_token_ids?: number[] }[]).filter((item) => item.generation_token_ids);
    expect(withIds.length).toBe(policy.generations.length);
    expect(withIds.length).toBeGreaterThan(1);
    expect(local.simulator!.requests).toHaveLength(0);

    const plain = await postJson(`${local.url}/run`, counterRow());
    expect(plain.status).toBe(200);
    expect(plain.body.response.model).toBe(local.simulator!.model);
    expect(JSON.stringify(plain.body)).not.toContain("generation_token_ids");
  });

  it("checks what it is given: NeMo Gym's rollout id form, a base URL with its model name, an http(s) URL", async () => {
    const badId = await postJson(`${local.url}/run`, { ...counterRow(), _ng_rollout_id: "job:1:2" });
    expect(badId.status).toBe(400);
    expect(badId.body.error.issues[0].path).toEqual(["_ng_rollout_id"]);
    const noName = await postJson(`${local.url}/run?policy_base_url=${encodeURIComponent(`${policy.url}/v1`)}`, counterRow());
    expect(noName.status).toBe(400);
    expect(noName.body.error.message).toContain("policy_model_name");
    const notHttp = await postJson(`${local.url}/run?policy_base_url=ftp://trainer/v1&policy_model_name=m`, counterRow());
    expect(notHttp.status).toBe(400);
    expect(policy.requests).toHaveLength(0);
  });

  it("answers a failure as NeMo Gym's record for the collector's rows, and as an error otherwise or when asked", async () => {
    const down = "policy_base_url=http://127.0.0.1:9/v1&policy_model_name=gone";
    const collectorRow = { ...counterRow(), _ng_task_index: 4, _ng_rollout_index: 2, expected_answer: "kept" };
    const record = await postJson(`${local.url}/run?${down}`, collectorRow);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      reward: 0,
      _ng_failure_class: "transient",
      _ng_rollout_id: "4-2",
      _ng_task_index: 4,
      expected_answer: "kept",
      error_code: "model_error",
      response: { object: "response", model: "gone", output: [] },
    });
    const asError = await postJson(`${local.url}/run?${down}&failures=error`, collectorRow);
    expect(asError.status).toBe(502);
    const trainerRow = await postJson(`${local.url}/run?${down}`, { ...counterRow(), _rowidx: 0 });
    expect(trainerRow.status).toBe(502);
    const unknownEnvironment = await postJson(`${local.url}/run?environment=nowhere&failures=record`, { ...counterRow(), _rowidx: 0 });
    expect(unknownEnvironment.body).toMatchObject({ _ng_failure_class: "legitimate", _ng_failure_terminal: true, error_status: 404 });
  });
});

describe("NeMo Gym's head-server routes on the gateway itself (the local emulation, plain HTTP)", () => {
  it("names each environment's agent at the gateway's own address", async () => {
    // Discovery needs a token like every route but /health (NeMo Gym's own client sends none: its agent server adds it).
    expect((await fetch(`${local.url}/global_config_dict_yaml`)).status).toBe(401);
    const answer = await gatewayFetch(`${local.url}/global_config_dict_yaml`);
    const config = parseYaml((await answer.json()) as string);
    const { hostname, port } = new URL(local.url);
    expect(config.head_server).toEqual({ host: hostname, port: Number(port) });
    expect(config.example_session_state_mgmt_simple_agent.responses_api_agents.edgegym).toMatchObject({ host: hostname, port: Number(port) });
    expect(Object.keys(config).sort()).toEqual(["example_session_state_mgmt_simple_agent", "example_single_tool_call_simple_agent", "head_server"]);
  });

  it("routes /aggregate_metrics by the entries' agent_ref, and refuses entries of two environments", async () => {
    const entries = [0, 1].map((r) => ({ agent_ref: { name: "example_single_tool_call_simple_agent" }, _ng_task_index: 0, _ng_rollout_index: r, reward: r }));
    const one = await postJson(`${local.url}/aggregate_metrics`, { verify_responses: entries });
    expect(one.status).toBe(200);
    expect(one.body.agent_metrics["mean/reward"]).toBe(0.5);
    const byQuery = await postJson(`${local.url}/aggregate_metrics?environment=example_single_tool_call`, {
      verify_responses: [{ _ng_task_index: 0, reward: 1 }],
    });
    expect(byQuery.body.agent_metrics["mean/reward"]).toBe(1);
    const mixed = await postJson(`${local.url}/aggregate_metrics`, {
      verify_responses: [...entries, { ...entries[0], agent_ref: { name: "example_session_state_mgmt_simple_agent" } }],
    });
    expect(mixed.status).toBe(400);
    const unknown = await postJson(`${local.url}/aggregate_metrics`, { verify_responses: [{ ...entries[0], agent_ref: { name: "nobody_agent" } }] });
    expect(unknown.status).toBe(404);
  });
});

describe("jobs", () => {
  it("run every rollout on the job's policy model with token ids, keep each row's own task index, and use NeMo Gym's id form", async () => {
    const rows = fixtureRows("example_session_state_mgmt").slice(0, 2);
    const jsonl = [
      { ...rows[0], _ng_task_index: 7 },
      { ...rows[1], _ng_task_index: 3 },
    ]
      .map((row) => JSON.stringify(row))
      .join("\n");
    const created = await createJob(local.url, jsonl, {
      environment: "example_session_state_mgmt",
      num_repeats: "2",
      policy_base_url: `${policy.url}/v1`,
      policy_model_name: POLICY,
      return_token_ids: "true",
    });
    expect(created.status).toBe(201);
    const info = await waitForJob(local.url, created.body.id);
    expect(info.counts).toMatchObject({ total: 4, done: 4, failed: 0 });
    const records = await jobLines(local.url, info.id, "rollouts");
    expect(records.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual([
      [3, 0],
      [3, 1],
      [7, 0],
      [7, 1],
    ]);
    for (const record of records) {
      expect(record._ng_rollout_id).toBe(`${info.id}-${record._ng_task_index}-${record._ng_rollout_index}`);
      expect(record._ng_rollout_id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]*$/);
      expect(record.response.model).toBe(POLICY);
      expect(record.response.output.some((item: { generation_token_ids?: number[] }) => item.generation_token_ids?.length)).toBe(true);
    }
    expect(local.simulator!.requests).toHaveLength(0);
    const groups = (info.metrics!.example_session_state_mgmt! as Record<string, unknown>)["group_level_metrics"] as { _ng_task_index: number }[];
    expect(groups.map((g) => g._ng_task_index)).toEqual([3, 7]);
  });

  it("refuse two rows with one task index, naming the line", async () => {
    const row = JSON.stringify({ ...fixtureRows("example_single_tool_call")[0], _ng_task_index: 5 });
    const created = await createJob(local.url, `${row}\n${row}`, { environment: "example_single_tool_call" });
    expect(created.status).toBe(400);
    expect(created.body.error.issues).toEqual([
      { line: 2, path: ["_ng_task_index"], message: "task index 5 is already line 1's; each row of a job needs its own" },
    ]);
  });

  it("write a failed rollout with NeMo Gym's failure fields", async () => {
    const created = await createJob(local.url, JSON.stringify(fixtureRows("example_single_tool_call")[0]), {
      environment: "example_single_tool_call",
      policy_base_url: "http://127.0.0.1:9/v1",
      policy_model_name: "gone",
    });
    const info = await waitForJob(local.url, created.body.id);
    expect(info.counts).toMatchObject({ total: 1, failed: 1 });
    const [failure] = await jobLines(local.url, info.id, "failures");
    expect(failure).toMatchObject({ failure_class: "model_error", _ng_failure_class: "transient", _ng_rollout_id: `${info.id}-0-0` });
  });
});
