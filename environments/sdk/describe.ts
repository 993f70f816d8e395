// What an environment tells the world about itself: GET /tools over HTTP, describe() over RPC.
import type { EnvironmentDescription, RpcResult } from "../../contracts/rpc.js";
import { lines } from "../../http/jsonl.js";
import { type AggregateMetrics, EdgegymError, type VerifyResult } from "../../protocol/index.js";
import { aggregateMetrics } from "../../metrics/index.js";
import { secretReader } from "./context.js";
import { OPERATION_TIMEOUT_MS } from "./refusals.js";
import type { Environment } from "./types.js";

export function describeEnvironment(environment: Environment): EnvironmentDescription {
  const base = {
    name: environment.name,
    description: environment.description,
    stateful: environment.stateful,
    ...(environment.maxSteps !== undefined ? { max_steps: environment.maxSteps } : {}),
    ...(environment.examples?.length ? { examples: environment.examples } : {}),
  };
  if (environment.kind === "gymnasium") return { kind: "gymnasium", ...base, tools: environment.tools };
  return { kind: "simple", ...base, tools: [...environment.tools.values()].map((tool) => tool.openai) };
}

/** The description with the tools of the environment's MCP servers (listed over the network, so async) after the native ones. */
export async function describeWithSources(environment: Environment, secrets: object = {}): Promise<EnvironmentDescription> {
  const description = describeEnvironment(environment);
  if (environment.kind !== "simple" || !environment.mcpServers || description.kind !== "simple") return description;
  const { mcpFunctionTools } = await import("./mcp/sources.js");
  const signal = AbortSignal.timeout(OPERATION_TIMEOUT_MS);
  const secret = secretReader(secrets);
  return { ...description, tools: [...description.tools, ...(await mcpFunctionTools(environment, { sessionId: "", signal, secret }))] };
}

/** GET /tools: the description, with `environment` for the name as it has always answered. */
export async function toolsAnswer(environment: Environment, secrets?: object): Promise<Record<string, unknown>> {
  // The examples are the dashboard's: /tools answers as NeMo Gym's does.
  const { name, examples: _examples, ...rest } = await describeWithSources(environment, secrets);
  return { environment: name, ...rest };
}

/** NeMo Gym's /aggregate_metrics with the environment's own hooks (compute_metrics, get_key_metrics). */
export function environmentMetrics(environment: Environment, verifyResponses: readonly VerifyResult[]): AggregateMetrics {
  return aggregateMetrics(verifyResponses, {
    computeMetrics: environment.computeMetrics,
    keyMetrics: environment.keyMetrics,
  });
}

/** NeMo Gym's /aggregate_metrics over verify responses streamed as JSON Lines, as data (RPC and in process alike). */
export async function streamedMetrics(environment: Environment, verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>> {
  const responses: VerifyResult[] = [];
  for await (const line of lines(verifyResponses)) if (line) responses.push(JSON.parse(line) as VerifyResult);
  try {
    return { ok: true, value: environmentMetrics(environment, responses) };
  } catch (error) {
    const status = error instanceof EdgegymError ? error.status : 500;
    return { ok: false, error: { status, code: "aggregate_metrics_failed", message: error instanceof Error ? error.message : String(error) } };
  }
}
