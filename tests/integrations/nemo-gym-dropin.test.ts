// NeMo Gym's rollout collector and NeMo RL's GRPO rollouts, replayed request for request against edgegym through the
// shipped configs and the NeMo Gym agent server (integrations/nemo_gym), over multi-turn tool-calling environments.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import type { Local } from "../../local/emulation.js";
import { type Simulator, startSimulator } from "../../local/simulator/server.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { type AgentServer, INTEGRATIONS, runPythonScript, startAgentServer } from "./agent-server.js";
import {
  aggregateBody,
  type Json,
  loadGlobalConfig,
  materializeRows,
  nemoRlBatch,
  nemoRlPostprocess,
  perAgentNumbers,
  post,
  rolloutIdOf,
  route,
  serverAddress,
  validateRewardComponents,
} from "./nemo-gym-client.js";

const ENVIRONMENTS = ["example_session_state_mgmt", "example_tool_call_multireward"];
const POLICY_MODEL = "Qwen/Qwen3-4B-trainer-policy";

let local: Local;
/** The trainer's policy server: what Gym's vllm_model (on NeMo RL's vLLM workers) is, at its fixed port. */
let policy: Simulator;
let collector: AgentServer;
let trainer: AgentServer;

beforeAll(async () => {
  local = await startTestLocal({ environments: ENVIRONMENTS, apiTokens: "trainer:trainer-token-padded-to-32-characters-or-more:run+model+jobs" });
  policy = await startSimulator({ model: POLICY_MODEL });
  collector = await startAgentServer(["--gateway", local.url, "--token", "trainer-token-padded-to-32-characters-or-more"]);
  trainer = await startAgentServer([
    "--gateway",
    local.url,
    "--token",
    "trainer-token-padded-to-32-characters-or-more",
    "--policy-base-url",
    `${policy.url}/v1`,
    "--policy-model",
    POLICY_MODEL,
    "--token-ids",
    "--failures",
    "error",
  ]);
}, 120_000);
afterAll(async () => {
  await collector?.stop();
  await trainer?.stop();
  await policy?.close();
  await local?.stop();
});
beforeEach(() => {
  local.simulator!.reset();
  policy.reset();
});

const rawLines = (environment: string, count: number) =>
  readFileSync(path.join(FIXTURES, environment, "example.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, count);

/** A shipped config file, with the agent server's port put where the file says 11000 (the test's server has a free port). */
function shippedConfig(name: string, port: number): Json {
  const text = readFileSync(path.join(INTEGRATIONS, "nemo_gym", "configs", name), "utf8");
  expect(text).toContain("port: 11000");
  return parseYaml(text.replaceAll("port: 11000", `port: ${port}`));
}

describe("ng_collect_rollouts, configured by integrations/nemo_gym/configs/collect.yaml", () => {
  it("discovers the agents, runs every /run to a 200, routes, and aggregates per agent as the collector does", async () => {
    const head = shippedConfig("collect.yaml", collector.port).head_server;
    // Step 1 (run_examples → setup_server_client): discovery from the head server, i.e. the agent server.
    const config = await loadGlobalConfig(head);
    const rows = ENVIRONMENTS.flatMap((environment) =>
      materializeRows(rawLines(environment, 2), {
        agentName: `${environment}_simple_agent`,
        numRepeats: 2,
        responsesCreateParams: { temperature: 1.0 },
        numRepeatsAddSeed: true,
      }),
    );
    expect(rows.map((r) => [r._ng_task_index, r._ng_rollout_index])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);

    // Step 2: every row to its agent's /run, all at once; a non-2xx would end the whole collection.
    const answers = await Promise.all(rows.map((row) => post(serverAddress(config, row.agent_ref.name), "/run", row)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
    const results: Json[] = answers.map((a) => a.body);
    const routes = rows.map((row, i) => route(row, results[i]));
    expect(routes).toEqual(rows.map(() => "rollouts"));

    for (const [i, result] of results.entries()) {
      const row = rows[i];
      // The rollout id is in NeMo Gym's form, and is the one it derives from the row.
      expect(rolloutIdOf(result)).toBe(`${row._ng_task_index}-${row._ng_rollout_index}`);
      expect(typeof result.reward).toBe("number");
      // The row comes back whole: its task fields, its sampling and seed, its agent_ref.
      for (const [key, value] of Object.entries(row)) if (key !== "responses_create_params") expect(result[key]).toEqual(value);
      expect(result.responses_create_params.temperature).toBe(1.0);
      expect(JSON.parse(result.responses_create_params.metadata.extra_body)).toEqual({ seed: row._ng_rollout_index });
      expect(result.response.object).toBe("response");
      // A multi-turn rollout: a tool call, its output, then the final turn.
      const types = (result.response.output as Json[]).map((item) => item.type);
      expect(types).toContain("function_call_output");
      expect(types.filter((t) => t === "function_call").length).toBe(types.filter((t) => t === "function_call_output").length);
      // Token ids were not asked for: none come back.
      expect(JSON.stringify(result.response.output)).not.toContain("prompt_token_ids");
    }
    const multireward = results.filter((r) => r.agent_ref.name === "example_tool_call_multireward_simple_agent");
    for (const result of multireward) validateRewardComponents(result);
    expect(multireward.every((r) => typeof r.reward_components?.correctness === "number")).toBe(true);

    // Step 3: discovery again, then /aggregate_metrics on each agent with the stripped results.
    const again = await loadGlobalConfig(head);
    for (const environment of ENVIRONMENTS) {
      const agent = `${environment}_simple_agent`;
      const mine = results.filter((r) => r.agent_ref.name === agent);
      const answer = await post(serverAddress(again, agent), "/aggregate_metrics", aggregateBody(mine));
      expect(answer.status).toBe(200);
      const rewards = mine.map((r) => r.reward as number);
      expect(answer.body.agent_metrics["mean/reward"]).toBeCloseTo(rewards.reduce((a, b) => a + b, 0) / rewards.length, 10);
      expect(answer.body.key_metrics).toBeTypeOf("object");
      expect(answer.body.group_level_metrics.map((g: Json) => [g._ng_task_index, g.num_rollouts])).toEqual([
        [0, 2],
        [1, 2],
      ]);
    }
  });

  it("a rollout that fails comes back 200 with NeMo Gym's failure fields and goes to the failures file", async () => {
    const config = await loadGlobalConfig(shippedConfig("collect.yaml", collector.port).head_server);
    const [row] = materializeRows(rawLines("example_session_state_mgmt", 1), { agentName: "example_session_state_mgmt_simple_agent", numRepeats: 1 });
    local.simulator!.configure({ faults: { errorRate: 1, errorStatus: 500 } });
    try {
      const answer = await post(serverAddress(config, row.agent_ref.name), "/run", row);
      expect(answer.status).toBe(200);
      expect(route(row, answer.body)).toBe("failures");
      expect(answer.body).toMatchObject({ reward: 0, _ng_failure_class: "transient", _ng_rollout_id: "0-0", error_code: "model_error" });
      expect(answer.body._ng_failure_terminal).toBeUndefined();
      expect(answer.body.response).toMatchObject({ object: "response", output: [] });
    } finally {
      local.simulator!.configure({ faults: {} });
    }
  });
});

describe("NeMo RL's GRPO rollouts, configured by integrations/nemo_gym/configs/nemo_rl_grpo.yaml", () => {
  it("every row's answer passes NeMo RL's reads: token ids on each turn, each prompt extending the last, rewards summing", async () => {
    const nemoGym = shippedConfig("nemo_rl_grpo.yaml", trainer.port).env.nemo_gym;
    // The agents are listed, not started (no entrypoint); the policy model server has a fixed port.
    expect(nemoGym.policy_model.responses_api_models.vllm_model.port).toBe(9100);
    for (const environment of ENVIRONMENTS) {
      expect(nemoGym[`${environment}_simple_agent`].responses_api_agents.edgegym.entrypoint).toBeUndefined();
    }

    // Two prompts per environment, four generations each; a group is one prompt's generations, in one agent.
    const prompts = ENVIRONMENTS.flatMap((environment) =>
      rawLines(environment, 2).map((line) => ({ ...JSON.parse(line), agent_ref: { type: "responses_api_agents", name: `${environment}_simple_agent` } })),
    );
    const generations = 4;
    const rows = nemoRlBatch(prompts, generations, { temperature: 1.0, topP: 1.0, maxNewTokens: 512 }, 40);
    // run_examples posts every row of the batch at once to its agent's host and port, from NeMo RL's own head config.
    const answers = await Promise.all(rows.map((row) => post(serverAddress(nemoGym, row.agent_ref.name), "/run", row)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);

    let multiTurn = 0;
    let modelCalls = 0;
    answers.forEach(({ body: result }, i) => {
      const log = nemoRlPostprocess(result);
      modelCalls += log.length / 2;
      if (log.length >= 4) multiTurn++;
      expect(typeof result.reward).toBe("number");
      validateRewardComponents(result);
      expect(perAgentNumbers(result)).toContain("reward");
      // The policy the trainer named served the rollout, and the record says so where NeMo Gym does.
      expect(result.response.model).toBe(POLICY_MODEL);
      expect(result._ng_task_index).toBe(rows[i]._ng_task_index);
      expect(result.responses_create_params).toMatchObject({ temperature: 1.0, top_p: 1.0, max_output_tokens: 512 });
    });
    expect(multiTurn).toBe(rows.length);
    // Every model call went to the trainer's policy server; none to the gateway's configured model.
    expect(policy.generations).toHaveLength(modelCalls);
    expect(local.simulator!.requests).toHaveLength(0);
    // The ids are the policy's own: each trainable item's generation is one the policy server produced.
    const produced = new Set(policy.generations.map((g) => JSON.stringify(g.generation_token_ids)));
    for (const { body } of answers) {
      for (const item of body.response.output as Json[])
        if (item.generation_token_ids) expect(produced.has(JSON.stringify(item.generation_token_ids))).toBe(true);
    }

    // GRPO's group rules (rollouts.py:1706-1808, 2852-2862): one agent and one _ng_task_index per group.
    for (let start = 0; start < rows.length; start += generations) {
      const group = answers.slice(start, start + generations).map((a) => a.body);
      expect(new Set(group.map((r) => r.agent_ref.name)).size).toBe(1);
      expect(new Set(group.map((r) => r._ng_task_index)).size).toBe(1);
    }
  });

  it("a rollout that fails is a 5xx, which NeMo RL counts as an infrastructure failure and retries", async () => {
    const nemoGym = shippedConfig("nemo_rl_grpo.yaml", trainer.port).env.nemo_gym;
    const [row] = nemoRlBatch(
      [{ ...JSON.parse(rawLines("example_session_state_mgmt", 1)[0]!), agent_ref: { name: "example_session_state_mgmt_simple_agent" } }],
      1,
      { temperature: 1, topP: 1, maxNewTokens: 64 },
      0,
    );
    policy.configure({ faults: { errorRate: 1, errorStatus: 503 } });
    try {
      const answer = await post(serverAddress(nemoGym, row.agent_ref.name), "/run", row);
      expect(answer.status).toBeGreaterThanOrEqual(500);
      expect(answer.body.error.code).toBe("model_error");
    } finally {
      policy.configure({ faults: {} });
    }
  });
});

describe("the Python client's GRPO example (integrations/python/examples/grpo_batch.py)", () => {
  it("turns prompts x group size into rewards, group advantages and token sequences", async () => {
    const data = path.join(PROJECT_ROOT, "environments", "example_session_state_mgmt", "data", "example.jsonl");
    const args = [
      "--gateway",
      local.url,
      "--token",
      "trainer-token-padded-to-32-characters-or-more",
      "--data",
      data,
      "--environment",
      "example_session_state_mgmt",
      "--prompts",
      "2",
      "--group-size",
      "4",
    ];
    const { code, stdout, stderr } = await runPythonScript("python/examples/grpo_batch.py", args);
    expect(code, stderr).toBe(0);
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Json);
    const summary = lines.pop();
    expect(summary).toMatchObject({ rollouts: 8, trained: 8, failed: 0 });
    expect(lines.map((l) => [l.task, l.rollout])).toEqual([0, 1].flatMap((task) => [0, 1, 2, 3].map((rollout) => [task, rollout])));
    for (const line of lines) expect(line.generated).toBeGreaterThan(0);
    expect(summary.tokens).toBe(lines.reduce((sum, l) => sum + l.tokens, 0));
    // Within a group the advantages are centred: they sum to zero.
    for (const task of [0, 1]) expect(lines.filter((l) => l.task === task).reduce((sum, l) => sum + l.advantage, 0)).toBeCloseTo(0, 5);
    expect(summary.mean_reward).toBeCloseTo(lines.reduce((sum, l) => sum + l.reward, 0) / 8, 10);
  });
});
