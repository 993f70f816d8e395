// OpenEnv's environment server (github meta-pytorch/OpenEnv, src/openenv/core/env_server/http_server.py) for every
// environment, under /openenv/<env>: /health, /metadata, /schema, /reset, /step, /state over HTTP, and /ws, the
// WebSocket its EnvClient (src/openenv/core/env_client.py) keeps an episode on.
import type { Context } from "hono";
import { z } from "zod";
import { environmentService } from "../../contracts/environments.js";
import { allowOnly } from "../../http/methods.js";
import { EdgegymError, InvalidRequestError } from "../../protocol/index.js";
import { OpenEnvAction, OpenEnvObservation, OpenEnvStateSchema, OpenEnvStep } from "../../protocol/openenv.js";
import { callerOf, type GatewayContext, gateway } from "./caller.js";
import { carried, carry } from "./openenv/carried.js";
import { stateOf, stepEpisode } from "./openenv/episode.js";
import type { EpisodeTarget } from "./openenv/types.js";
import { openEpisode } from "./openenv/open.js";
import { openEnvSocket } from "./openenv/socket.js";
import { gatewayPorts } from "./ports.js";

type C = Context<GatewayContext>;

export const openenv = gateway.createApp();

/** The environment the path names, as the episode's calls reach it; 404 for one this deployment does not have. */
export function targetOf(c: C): EpisodeTarget {
  const environment = c.req.param("env") ?? "";
  const known = gatewayPorts(c.env).config.ENVIRONMENTS;
  const service = environmentService(c.env, known, environment);
  if (!service) throw new EdgegymError(404, "unknown_environment", `no environment "${environment}" (known: ${known.join(", ")})`);
  return { environment, service, caller: callerOf(c).name };
}

/** OpenEnv's bodies are optional (Body(default_factory=ResetRequest)): no body at all is `{}`. */
async function jsonBody(c: C): Promise<unknown> {
  const text = await c.req.text();
  if (!text.trim()) return {};
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EdgegymError(400, "invalid_json", `the body is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

openenv.get("/openenv/:env/health", (c) => {
  targetOf(c);
  return c.json({ status: "healthy" });
});

openenv.get("/openenv/:env/metadata", async (c) => {
  const description = await targetOf(c).service.describe();
  return c.json({ name: description.name, description: description.description, readme_content: null, version: null, author: null, documentation_url: null });
});

const jsonSchema = (schema: z.ZodType) => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return rest;
};

openenv.get("/openenv/:env/schema", (c) => {
  targetOf(c);
  return c.json({ action: jsonSchema(OpenEnvAction), observation: jsonSchema(OpenEnvObservation), state: jsonSchema(OpenEnvStateSchema) });
});

/** Over HTTP the episode travels with the client: observation.metadata.episode, sent back as `episode` (step) or ?episode= (state). */
openenv.post("/openenv/:env/reset", async (c) => {
  const { episode, result } = await openEpisode(targetOf(c), await jsonBody(c));
  return c.json({ ...result, observation: { ...result.observation, metadata: { ...(result.observation.metadata as object), episode: carry(episode) } } });
});

openenv.post("/openenv/:env/step", async (c) => {
  const target = targetOf(c);
  const body = await jsonBody(c);
  const parsed = OpenEnvStep.safeParse(body);
  // As OpenEnv's step_handler: an action that does not validate is a 422 (here with the envelope's issue paths).
  if (!parsed.success) {
    const invalid = new InvalidRequestError("step request", parsed.error);
    throw new EdgegymError(422, invalid.code, invalid.message, invalid.issues);
  }
  if (parsed.data.episode === undefined) {
    throw new EdgegymError(
      409,
      "no_episode",
      `no episode: POST /openenv/${target.environment}/reset first, and send its observation.metadata.episode as "episode"`,
    );
  }
  const episode = carried(parsed.data.episode, "episode");
  const result = await stepEpisode(target, episode, parsed.data.action);
  return c.json({ ...result, observation: { ...result.observation, metadata: { ...(result.observation.metadata as object), episode: carry(episode) } } });
});

openenv.get("/openenv/:env/state", (c) => {
  targetOf(c);
  const text = c.req.query("episode");
  return c.json(stateOf(text === undefined ? undefined : carried(text, "the episode query parameter")));
});

openenv.get("/openenv/:env/ws", async (c) => {
  if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
    throw new EdgegymError(400, "upgrade_required", "/ws is OpenEnv's WebSocket: connect with Upgrade: websocket");
  }
  return openEnvSocket(targetOf(c));
});

// A known OpenEnv path with a method it does not take: 405 with the methods it does, as OpenEnv's FastAPI server answers.
allowOnly(openenv, {
  "/openenv/:env/health": ["GET"],
  "/openenv/:env/metadata": ["GET"],
  "/openenv/:env/schema": ["GET"],
  "/openenv/:env/reset": ["POST"],
  "/openenv/:env/step": ["POST"],
  "/openenv/:env/state": ["GET"],
  "/openenv/:env/ws": ["GET"],
});
