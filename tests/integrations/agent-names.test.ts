// Every agent name NeMo Gym's data gives the bundled environments (environments/*/data, tests/fixtures/nemo-gym) is
// discovered, runs and aggregates: replayed as ng_collect_rollouts sends it, through the NeMo Gym agent server.
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { environmentFromAgentName } from "../../local/cli/agent-ref.js";
import type { Local } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import { FIXTURES } from "../helpers/fixtures.js";
import { startTestLocal } from "../helpers/local.js";
import { type AgentServer, startAgentServer } from "./agent-server.js";
import { aggregateBody, type Json, loadGlobalConfig, materializeRows, post, serverAddress } from "./nemo-gym-client.js";

const ENVIRONMENTS_DIR = path.join(PROJECT_ROOT, "environments");
const BUNDLED = readdirSync(ENVIRONMENTS_DIR).filter((name) => {
  try {
    return readdirSync(path.join(ENVIRONMENTS_DIR, name, "data")).length > 0;
  } catch {
    return false;
  }
});

/** Every data line naming an agent, by agent name: the environment it ships with and the first raw line. */
function namedAgents(): Map<string, { environment: string; line: string }> {
  const found = new Map<string, { environment: string; line: string }>();
  const dirs = BUNDLED.flatMap((environment) => [
    { environment, dir: path.join(ENVIRONMENTS_DIR, environment, "data") },
    { environment, dir: path.join(FIXTURES, environment) },
  ]);
  for (const { environment, dir } of dirs) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((file) => file.endsWith(".jsonl"));
    } catch {
      continue;
    }
    for (const file of files) {
      for (const line of readFileSync(path.join(dir, file), "utf8").split("\n")) {
        if (!line.trim()) continue;
        const name = (JSON.parse(line) as { agent_ref?: { name?: string } }).agent_ref?.name;
        // A recorded rollout is not an input row: keep the first example.jsonl line when there is one.
        if (name && (!found.has(name) || file === "example.jsonl")) found.set(name, { environment, line: rowLine(line) });
      }
    }
  }
  return found;
}

/** The input row of a data line: a recorded rollout keeps its task fields and responses_create_params, not its result. */
function rowLine(line: string): string {
  const { response: _response, reward: _reward, ...row } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(row);
}

const AGENTS = namedAgents();
const ENVIRONMENTS = [...new Set([...AGENTS.values()].map((a) => a.environment))].sort();

describe("the agent names in the bundled data", () => {
  it("include NeMo Gym's own names beyond <env>_simple_agent (the data this test covers)", () => {
    expect([...AGENTS.keys()]).toEqual(expect.arrayContaining(["example_multi_turn_gymnasium_agent", "structured_outputs_v4_simple_agent"]));
  });

  it.each([...AGENTS.entries()])("%s resolves to its environment (CLI, /run, jobs, /aggregate_metrics share the rule)", (name, { environment }) => {
    expect(environmentFromAgentName(name, BUNDLED)).toBe(environment);
  });
});

let local: Local & { token?: string };
let server: AgentServer;
beforeAll(async () => {
  local = await startTestLocal({ environments: ENVIRONMENTS });
  server = await startAgentServer(["--gateway", local.url, "--token", local.token!]);
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await local?.stop();
});

/** Agent names that only a recorded rollout carries, one that kept none of its task fields (NeMo Gym's ruler records). */
const WITHOUT_TASK_FIELDS = new Set(["ruler_benchmark_simple_agent"]);

describe("ng_collect_rollouts on the bundled data's agent names", () => {
  it("discovers every name, runs each one's row to a scored 200 at that agent's address, and aggregates it", async () => {
    const config: Json = await loadGlobalConfig({ host: "127.0.0.1", port: server.port });
    for (const [name, { environment, line }] of AGENTS) {
      expect(config[name], `${name} in /global_config_dict_yaml`).toBeDefined();
      expect(config[name].responses_api_agents.edgegym.environment).toBe(environment);
      const [row] = materializeRows([line], { numRepeats: 1 });
      const answer = await post(serverAddress(config, name), "/run", row);
      expect(answer.status, `${name}: ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
      if (WITHOUT_TASK_FIELDS.has(name)) {
        // Its only line is a recorded rollout that kept no task fields: NeMo Gym's failure record, naming the field.
        expect(answer.body._ng_failure_class, name).toBe("legitimate");
        expect(String(answer.body.error_message), name).toContain("outputs");
        continue;
      }
      expect(answer.body._ng_failure_class, name).toBeUndefined();
      expect(typeof answer.body.reward, name).toBe("number");
      expect(answer.body.agent_ref.name).toBe(name);
      const aggregate = await post(serverAddress(config, name), "/aggregate_metrics", aggregateBody([answer.body]));
      expect(aggregate.status, name).toBe(200);
      expect(aggregate.body.agent_metrics["mean/reward"]).toBe(answer.body.reward);
    }
  }, 120_000);
});
