// Opening an OpenEnv episode: the task is the row sent or the environment's example row.
import { EdgegymError, parseOr400 } from "../../../protocol/index.js";
import { OpenEnvReset } from "../../../protocol/openenv.js";
import { resetEpisode } from "./episode.js";
import type { EpisodeTarget } from "./types.js";

/** reset's task: the row sent, else the environment's bundled example row. */
export async function openEpisode(target: EpisodeTarget, body: unknown) {
  const request = parseOr400(OpenEnvReset, body, "reset request");
  const description = await target.service.describe();
  const row = request.row ?? description.examples?.[0];
  if (!row) throw new EdgegymError(400, "no_task", `${target.environment} bundles no example row: send the task as "row" (a NeMo Gym dataset row)`);
  return resetEpisode(target, row, request.episode_id ?? crypto.randomUUID(), description.kind);
}
