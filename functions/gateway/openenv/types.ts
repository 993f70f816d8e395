// What an OpenEnv episode is between two calls, and whom its calls are for.
import type { EnvironmentService } from "../../../contracts/rpc.js";
import type { DatasetRow, Item } from "../../../protocol/index.js";
import type { OpenEnvResult } from "../../../protocol/openenv.js";

/** What an episode is between two calls: on a WebSocket's connection, or carried by an HTTP client (carried.ts). */
export interface Episode {
  environment: string;
  /** A simple environment (tools, then /verify) or a gymnasium one (every turn is a /step). */
  kind: "simple" | "gymnasium";
  episodeId: string;
  sessionId: string;
  row: DatasetRow;
  /** The trajectory so far as NeMo Gym's agent builds it: function calls, their outputs, the final message. */
  produced: Item[];
  steps: number;
  done: boolean;
}

/** Whom the calls are for: the environment's service, its name, and the caller's token name (the session's owner). */
export interface EpisodeTarget {
  environment: string;
  service: EnvironmentService;
  caller: string;
}

export interface Opened {
  episode: Episode;
  result: OpenEnvResult;
}
