// NeMo Gym's head-server surface: discovery (/global_config_dict_yaml, /server_instances) and /aggregate_metrics routed by agent_ref.
import type { Context } from "hono";
import { stringify } from "yaml";
import type { GatewayEnv } from "../../contracts/env.generated.js";
import { environmentService } from "../../contracts/environments.js";
import type { EnvironmentService } from "../../contracts/rpc.js";
import { readJson } from "../../http/errors.js";
import { AggregateMetricsRequest, agentNamesOf, EdgegymError, environmentFromAgentName, parseOr400 } from "../../protocol/index.js";
import { type GatewayContext, gateway } from "./caller.js";
import { fromBehind } from "./forward.js";
import { gatewayPorts } from "./ports.js";

type C = Context<GatewayContext>;

export const nemoGym = gateway.createApp();

/** The server-type key NeMo Gym's config gives agents, and the implementation key edgegym's entries carry. */
const AGENTS = "responses_api_agents";
const IMPLEMENTATION = "edgegym";

/** `host[:port]`: a DNS name or IPv4 address, or an [IPv6] address, and a port of 1-5 digits; nothing else. */
const HOST_AND_PORT =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;

/** X-Forwarded-Host's first value when it is a well-formed `host[:port]` (port 1-65535), else undefined (ignored). */
function forwardedHostOf(header: string | undefined): string | undefined {
  const first = header?.split(",")[0]?.trim();
  if (!first || first.length > 260 || !HOST_AND_PORT.test(first)) return undefined;
  const port = /:(\d+)$/.exec(first)?.[1];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) return undefined;
  try {
    return new URL(`http://${first}`).host ? first : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where NeMo Gym's client should send /run and /aggregate_metrics: the address it reached us at. It always builds
 * `http://{host}:{port}`, so a local forwarder in front of us (integrations/nemo_gym) names its own in X-Forwarded-Host.
 * A malformed X-Forwarded-Host is ignored: the address is then the one the request reached.
 */
export function advertisedAddress(url: string, forwardedHost: string | undefined): { host: string; port: number } {
  const parsed = new URL(url);
  const forwarded = forwardedHostOf(forwardedHost);
  const at = forwarded ? new URL(`http://${forwarded}`) : parsed;
  const fallback = !forwarded && parsed.protocol === "https:" ? 443 : 80;
  return { host: at.hostname.replace(/^\[(.*)\]$/, "$1"), port: at.port ? Number(at.port) : fallback };
}

function service(env: GatewayEnv, name: string): EnvironmentService {
  const known = gatewayPorts(env).config.ENVIRONMENTS;
  const found = environmentService(env, known, name);
  if (!found) throw new EdgegymError(404, "unknown_environment", `no environment "${name}" (known: ${known.join(", ")})`);
  return found;
}

/** Every agent per environment, named as NeMo Gym names it: `<env>_simple_agent` (or `_gymnasium_agent`), and its configs' own names. */
async function agents(env: GatewayEnv): Promise<{ name: string; environment: string }[]> {
  const names = gatewayPorts(env).config.ENVIRONMENTS;
  const descriptions = await Promise.all(names.map((name) => service(env, name).describe()));
  return descriptions.flatMap((description, i) => {
    const environment = names[i]!;
    return agentNamesOf(environment, description.kind === "gymnasium" ? "gymnasium" : "simple").map((name) => ({ name, environment }));
  });
}

/** NeMo Gym's global config as its head server holds it: the head server and, per agent, where to reach it. */
export async function globalConfig(c: C): Promise<Record<string, unknown>> {
  const address = advertisedAddress(c.req.url, c.req.header("x-forwarded-host"));
  const config: Record<string, unknown> = { head_server: address };
  for (const { name, environment } of await agents(c.env)) config[name] = { [AGENTS]: { [IMPLEMENTATION]: { ...address, environment } } };
  return config;
}

// Upstream's handler returns OmegaConf.to_yaml(...) annotated `str`: a JSON string holding YAML, which the client json.loads.
nemoGym.get("/global_config_dict_yaml", async (c) => c.json(stringify(await globalConfig(c))));

/** `gym env status` lists these (process_name, server_type and name are the fields it requires). */
nemoGym.get("/server_instances", async (c) => {
  const { host, port } = advertisedAddress(c.req.url, c.req.header("x-forwarded-host"));
  const instances = (await agents(c.env)).map(({ name, environment }) => ({
    name,
    process_name: name,
    server_type: AGENTS,
    entrypoint: null,
    host,
    port,
    url: `http://${host}:${port}`,
    environment,
  }));
  return c.json(instances);
});

/**
 * NeMo Gym's collector posts each agent's verify responses to `<agent>/aggregate_metrics`; behind one address every agent
 * is here, so the entries' agent_ref (or `?environment=`) picks the environment whose own /aggregate_metrics answers.
 */
nemoGym.post("/aggregate_metrics", async (c) => {
  const body = parseOr400(AggregateMetricsRequest, await readJson(c), "aggregate_metrics request");
  const known = gatewayPorts(c.env).config.ENVIRONMENTS;
  const explicit = c.req.query("environment");
  const named = new Set<string>();
  for (const entry of body.verify_responses) {
    const agentName = (entry["agent_ref"] as { name?: unknown } | undefined)?.name;
    const environment = typeof agentName === "string" ? environmentFromAgentName(agentName, known) : undefined;
    if (typeof agentName === "string" && !environment && !explicit) {
      throw new EdgegymError(404, "unknown_environment", `agent_ref "${agentName}" names no environment (known: ${known.join(", ")})`);
    }
    if (environment) named.add(environment);
  }
  const environment = explicit ?? (named.size === 1 ? [...named][0] : undefined);
  if (!environment) {
    const problem =
      named.size === 0
        ? "no entry has an agent_ref; pass ?environment=<name>"
        : `the entries name ${named.size} environments (${[...named].join(", ")}); post each agent's separately`;
    throw new EdgegymError(400, "invalid_request", problem);
  }
  const target = new Request("http://internal/aggregate_metrics", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return fromBehind(c, await service(c.env, environment).fetch(target));
});
