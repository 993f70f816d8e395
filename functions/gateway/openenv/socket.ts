// OpenEnv's /ws (http_server.py websocket_endpoint): one episode per connection, messages answered one at a time in order.
import { EdgegymError, issuesOf } from "../../../protocol/index.js";
import { OpenEnvMessage, OpenEnvStep } from "../../../protocol/openenv.js";
import { stateOf, stepEpisode } from "./episode.js";
import type { Episode, EpisodeTarget } from "./types.js";
import { openEpisode } from "./open.js";

type Outgoing = { type: "observation" | "state" | "error"; data: unknown };

/** types.py WSErrorResponse, with WSErrorCode's codes; edgegym's own code, status and zod issue paths ride along. */
function errorMessage(error: unknown): Outgoing {
  if (error instanceof EdgegymError) {
    const code = error.issues ? "VALIDATION_ERROR" : "EXECUTION_ERROR";
    return {
      type: "error",
      data: { message: error.message, code, error_code: error.code, status: error.status, ...(error.issues ? { errors: error.issues } : {}) },
    };
  }
  return { type: "error", data: { message: error instanceof Error ? error.message : String(error), code: "EXECUTION_ERROR" } };
}

function invalid(what: string, error: Parameters<typeof issuesOf>[0]): Outgoing {
  const errors = issuesOf(error);
  return { type: "error", data: { message: `invalid ${what}`, code: "VALIDATION_ERROR", status: 422, errors } };
}

/** One connection's episode: what each message does to it and what it answers. */
class SocketEpisode {
  private episode: Episode | undefined;

  constructor(private readonly target: EpisodeTarget) {}

  /** The answer to one message; undefined for `close`, which ends the connection. */
  async answer(text: string): Promise<Outgoing | undefined> {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { type: "error", data: { message: `Invalid JSON: ${error instanceof Error ? error.message : String(error)}`, code: "INVALID_JSON" } };
    }
    const type = raw && typeof raw === "object" && "type" in raw ? String(raw.type) : "";
    if (!["reset", "step", "state", "close"].includes(type)) return { type: "error", data: { message: `Unknown message type: ${type}`, code: "UNKNOWN_TYPE" } };
    const message = OpenEnvMessage.safeParse(raw);
    if (!message.success) return invalid("message", message.error);
    try {
      switch (message.data.type) {
        case "reset": {
          const opened = await openEpisode(this.target, message.data.data);
          this.episode = opened.episode;
          return { type: "observation", data: opened.result };
        }
        case "step": {
          // The message's data is StepRequest's action (env_client.py step: {"type": "step", "data": _step_payload(action)}).
          const step = OpenEnvStep.safeParse({ action: message.data.data });
          if (!step.success) return invalid("action", step.error);
          if (!this.episode) throw new EdgegymError(409, "no_episode", `no episode on this connection: send {"type": "reset"} first`);
          return { type: "observation", data: await stepEpisode(this.target, this.episode, step.data.action) };
        }
        case "state":
          return { type: "state", data: stateOf(this.episode) };
        case "close":
          return undefined;
      }
    } catch (error) {
      return errorMessage(error);
    }
  }
}

/** The 101 answer for an upgrade request; the server side of the pair runs the episode. */
export function openEnvSocket(target: EpisodeTarget): Response {
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  const episode = new SocketEpisode(target);
  let queue: Promise<void> = Promise.resolve();
  server.addEventListener("message", (event) => {
    const text = typeof event.data === "string" ? event.data : new TextDecoder().decode(event.data);
    queue = queue.then(async () => {
      const outgoing = await episode.answer(text);
      if (outgoing === undefined) server.close(1000, "closed");
      else server.send(JSON.stringify(outgoing));
    });
  });
  server.addEventListener("close", () => {
    try {
      server.close(1000, "closed");
    } catch {
      // Already closed.
    }
  });
  return new Response(null, { status: 101, webSocket: client });
}
