// Opening an OpenEnv episode: the environment must be a tool-calling one, and the task is the row sent or its example row.
import type { EnvironmentDescription } from "../../../contracts/rpc.js";
import { EdgegymError, parseOr400 } from "../../../protocol/index.js";
import { OpenEnvReset } from "../../../protocol/openenv.js";
import { type EpisodeTarget, resetEpisode } from "./episode.js";

/** A gymnasium environment (reset/step of its own) is not served as a tool-calling OpenEnv environment yet. */
async function describeServed(target: EpisodeTarget): Promise<EnvironmentDescription> {
  const description = await target.service.describe();
  if (description.kind === "gymnasium") {
    throw new EdgegymError(400, "not_supported", `${target.environment} is a gymnasium environment; /openenv serves tool-calling (simple) environments`);
  }
  return description;
}

/** reset's task: the row sent, else the environment's bundled example row. */
export async function openEpisode(target: EpisodeTarget, body: unknown) {
  const request = parseOr400(OpenEnvReset, body, "reset request");
  const description = await describeServed(target);
  const row = request.row ?? description.examples?.[0];
  if (!row) throw new EdgegymError(400, "no_task", `${target.environment} bundles no example row: send the task as "row" (a NeMo Gym dataset row)`);
  return resetEpisode(target, row, request.episode_id ?? crypto.randomUUID());
}
