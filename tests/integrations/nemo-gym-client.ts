// What NeMo Gym's rollout collector and NeMo RL's Gym integration send and read, replayed step by step from their source
// (NVIDIA-NeMo/Gym 07d6b0d, NVIDIA-NeMo/RL 7ea279a; citations inline). Rewritten, not copied: only the wire behaviour.
import { parse as parseYaml } from "yaml";

// Tests read JSON answers field by field, as the Python side does with dicts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Address {
  host: string;
  port: number;
}

/**
 * ServerClient.load_from_global_config (nemo_gym/server_utils.py:305-324): GET http://head/global_config_dict_yaml with no
 * header, no status check; the body is json.loads-ed and handed to OmegaConf.create (a YAML string or a mapping).
 */
export async function loadGlobalConfig(head: Address): Promise<Json> {
  const response = await fetch(`http://${head.host}:${head.port}/global_config_dict_yaml`);
  const decoded: unknown = JSON.parse(await response.text());
  return typeof decoded === "string" ? parseYaml(decoded) : decoded;
}

/** get_first_server_config_dict (nemo_gym/global_config.py:1009-1015): cfg[name], its first value, that one's first value. */
export function serverAddress(config: Json, name: string): Address {
  const typed = config[name];
  if (!typed) throw new Error(`KeyError: ${name}`);
  const implementation = Object.values(Object.values(typed)[0] as object)[0] as Address;
  return { host: implementation.host, port: implementation.port };
}

/** ServerClient.post → request() (server_utils.py:193-264, 326-360): http://host:port{path}, orjson body, no auth, no cookies. */
export async function post(address: Address, path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`http://${address.host}:${address.port}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  // raise_for_status (server_utils.py:267-279): any non-2xx raises; get_response_json is orjson.loads whatever the type.
  return { status: response.status, body: JSON.parse(text) };
}

export interface CollectOptions {
  agentName?: string;
  numRepeats: number;
  responsesCreateParams?: Record<string, unknown>;
  numRepeatsAddSeed?: boolean;
}

/** RolloutCollectionHelper._preprocess_rows_from_config (nemo_gym/rollout_collection.py:595-689), for one input file. */
export function materializeRows(lines: string[], options: CollectOptions): Json[] {
  const taskOfLine = new Map<string, number>();
  const nextRollout = new Map<number, number>();
  const rows: Json[] = [];
  for (const line of lines) {
    const row = JSON.parse(line);
    if (options.agentName) row.agent_ref ??= { name: options.agentName };
    if (!row.agent_ref?.name) throw new Error("No agent specified for rows");
    // A shallow merge: top-level keys of responses_create_params only.
    row.responses_create_params = { ...row.responses_create_params, ...options.responsesCreateParams };
    // A row's own task index is kept; else identical raw lines share one, numbered in order of first appearance.
    if (!("_ng_task_index" in row)) {
      if (!taskOfLine.has(line)) taskOfLine.set(line, taskOfLine.size);
      row._ng_task_index = taskOfLine.get(line);
    }
    for (let repeat = 0; repeat < options.numRepeats; repeat++) {
      const copy = structuredClone(row);
      const rollout = nextRollout.get(copy._ng_task_index) ?? 0;
      copy._ng_rollout_index = rollout;
      nextRollout.set(copy._ng_task_index, rollout + 1);
      if (options.numRepeatsAddSeed) {
        copy.responses_create_params.metadata ??= {};
        const extra = JSON.parse(copy.responses_create_params.metadata.extra_body ?? "{}");
        copy.responses_create_params.metadata.extra_body = JSON.stringify({ ...extra, seed: copy._ng_rollout_index });
      }
      rows.push(copy);
    }
  }
  return rows;
}

/** maybe_rollout_id_from_run_body (nemo_gym/rollout_correlation.py:38-77): the explicit id must match, else task-rollout. */
export function rolloutIdOf(body: Json): string | undefined {
  const explicit = body._ng_rollout_id;
  let id: string | undefined;
  if (explicit !== undefined && explicit !== null) {
    if (typeof explicit !== "string" || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(explicit)) throw new Error(`ValueError: _ng_rollout_id ${explicit}`);
    id = explicit;
  } else if (body._ng_task_index !== undefined && body._ng_rollout_index !== undefined) {
    id = `${body._ng_task_index}-${body._ng_rollout_index}`;
  }
  const attempt = body._ng_attempt_index;
  return id !== undefined && attempt > 0 ? `${id}-a${attempt}` : id;
}

/** run_from_config's handling of one result (rollout_collection.py:864-949): indices from the row, then routing. */
export function route(row: Json, result: Json): "nowhere" | "failures" | "rollouts" {
  result._ng_task_index = row._ng_task_index;
  result._ng_rollout_index = row._ng_rollout_index;
  result.agent_ref = row.agent_ref;
  for (const key of ["skills_ref", "_ng_attempt_index", "_ng_rollout_id"]) if (key in row) result[key] = row[key];
  if (result._ng_no_persist) return "nowhere";
  if (result._ng_failure_class !== undefined && result._ng_failure_class !== null) return "failures";
  return "rollouts";
}

/** _call_aggregate_metrics' body per agent (rollout_collection.py:1061-1082): heavy fields dropped, response.usage kept. */
export function aggregateBody(results: Json[]): Json {
  const dropped = new Set(["response", "responses_create_params", "ng_agent_observations", "ng_model_call_capture", "ng_trajectory"]);
  return {
    verify_responses: results.map((result) => {
      const entry = Object.fromEntries(Object.entries(result).filter(([key]) => !dropped.has(key)));
      if (result.response?.usage) entry.response = { usage: result.response.usage };
      return entry;
    }),
  };
}

// ── NeMo RL ───────────────────────────────────────────────────────────────────────────────────────────────────

export interface Sampling {
  temperature: number;
  topP: number;
  maxNewTokens: number;
}

/**
 * GRPO's batch (grpo.py repeat_interleave of num_generations_per_prompt), the async collector's per-prompt _ng_task_index
 * (trajectory_collector.py:440-455), then _prepare_nemo_gym_rows (nemo_rl/experience/rollouts.py:2222-2244).
 */
export function nemoRlBatch(prompts: Json[], generations: number, sampling: Sampling, firstTaskIndex: number): Json[] {
  const rows: Json[] = [];
  prompts.forEach((prompt, p) => {
    const stamped = { ...structuredClone(prompt), _ng_task_index: firstTaskIndex + p };
    for (let g = 0; g < generations; g++) rows.push(structuredClone(stamped));
  });
  rows.forEach((row, index) => {
    const params = row.responses_create_params;
    params.temperature = sampling.temperature;
    params.top_p = sampling.topP;
    params.max_output_tokens = params.max_output_tokens == null ? sampling.maxNewTokens : Math.min(params.max_output_tokens, sampling.maxNewTokens);
    row._rowidx = index;
  });
  return rows;
}

export interface MessageLog {
  role: "user" | "assistant";
  token_ids: number[];
  generation_logprobs?: number[];
}

/**
 * NemoGym._postprocess_nemo_gym_to_nemo_rl_result (nemo_rl/environments/nemo_gym.py:752-1017) and run_rollouts' NaN check
 * (:719-720): every read it makes of the answer, the prefix assertion (:840-847) included. Throws where NeMo RL raises.
 */
export function nemoRlPostprocess(result: Json): MessageLog[] {
  if (typeof result !== "object" || result === null || Array.isArray(result)) throw new Error("Hit a non-successful response");
  if (!("responses_create_params" in result)) throw new Error("KeyError: responses_create_params");
  const output = result.response.output;
  if (!Array.isArray(output)) throw new Error("response.output is not a list");
  const log: MessageLog[] = [];
  const seen: number[] = [];
  for (const item of output) {
    // _is_trainable_output_item (:359-366): a non-empty generation_token_ids.
    if (!Array.isArray(item.generation_token_ids) || item.generation_token_ids.length === 0) continue;
    const prompt: number[] = item.prompt_token_ids;
    const generation: number[] = item.generation_token_ids;
    const logprobs: number[] = item.generation_log_probs;
    if (prompt === undefined || logprobs === undefined) throw new Error("KeyError: prompt_token_ids / generation_log_probs");
    const head = prompt.slice(0, seen.length);
    if (head.length !== seen.length || head.some((id, i) => id !== seen[i])) throw new Error("AssertionError: Non-contiguous messages found!");
    log.push({ role: "user", token_ids: prompt.slice(seen.length) });
    log.push({ role: "assistant", token_ids: generation, generation_logprobs: logprobs });
    seen.push(...prompt.slice(seen.length), ...generation);
  }
  if (log.length === 0) throw new Error("ValueError: NeMo Gym returned a result with no generation data");
  if (log.some((m) => m.generation_logprobs?.some((v) => Number.isNaN(v)))) throw new Error("RuntimeError: Generation logprobs contain NaN");
  return log;
}

/** validate_reward_components_match_scalar (nemo_gym.py:1080-1104): math.isclose(reward, sum, rel 1e-5, abs 1e-6). */
export function validateRewardComponents(result: Json): void {
  const components = result.reward_components;
  if (!components || Object.keys(components).length === 0) return;
  const reward = Number(result.reward);
  const sum = Object.values(components as Record<string, number>).reduce((a, b) => a + Number(b), 0);
  if (Math.abs(reward - sum) > Math.max(1e-5 * Math.max(Math.abs(reward), Math.abs(sum)), 1e-6)) {
    throw new Error(`ValueError: reward=${reward} but reward_components sum to ${sum}`);
  }
}

/** The per-agent metrics NeMo RL logs (rollouts.py:2718-2745): every top-level bool/int/float of each result. */
export function perAgentNumbers(result: Json): string[] {
  return Object.entries(result)
    .filter(([, value]) => typeof value === "number" || typeof value === "boolean")
    .map(([key]) => key);
}
