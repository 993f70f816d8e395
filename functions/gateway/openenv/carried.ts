// The episode a stateless HTTP client carries between /reset, /step and /state (OpenEnv's HTTP server keeps none):
// base64url JSON, read back through zod. Not signed, and it need not be: the session id inside is the environment's own,
// bound to the caller's token, and what the rest claims (the row, the trajectory) a caller can already send to /verify.
import { z } from "zod";
import { DatasetRow, EdgegymError, InvalidRequestError, Item } from "../../../protocol/index.js";
import type { Episode } from "./types.js";

const CarriedEpisode = z.object({
  environment: z.string(),
  kind: z.enum(["simple", "gymnasium"]),
  episodeId: z.string(),
  sessionId: z.string(),
  row: DatasetRow,
  produced: z.array(Item),
  steps: z.number().int().min(0),
  done: z.boolean(),
});

function base64url(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text: string): string {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

export function carry(episode: Episode): string {
  return base64url(JSON.stringify(episode));
}

/** The episode an HTTP client brought back; `where` names the field it came in (the 400 says so). */
export function carried(text: string, where: string): Episode {
  let value: unknown;
  try {
    value = JSON.parse(fromBase64url(text));
  } catch {
    throw new EdgegymError(400, "invalid_episode", `${where} is not an episode this gateway handed out (pass observation.metadata.episode as it came)`);
  }
  const parsed = CarriedEpisode.safeParse(value);
  if (!parsed.success) throw new InvalidRequestError(where, parsed.error);
  return parsed.data as Episode;
}
