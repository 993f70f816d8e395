// `edgegym reverify` on a remote environment's records (issue 24): when the server says `reverify_mode: stateless` (or its
// entry's `reverify` does), each record goes to its POST /verify with no session; otherwise the records are skipped.
import type { RemoteEnvironmentConfig, ReverifyMode } from "../../contracts/remote.js";
import { RemoteClient, parseJson } from "../../environments/sdk/remote/client.js";
import { loadRemotes, remoteConfigFile } from "../remote.js";

type Json = Record<string, unknown>;

export type RemoteVerdict = { kind: "ok"; body: Json } | { kind: "skip"; reason: string } | { kind: "error"; message: string };

export type RemoteVerify = (body: Json) => Promise<RemoteVerdict>;

/** One verifier per remote of the run's remote file (the option, EDGEGYM_REMOTE_CONFIG or ./edgegym.remote.json). */
export function remoteVerifiers(file: string | undefined, native: readonly string[], env: NodeJS.ProcessEnv = process.env): Map<string, RemoteVerify> {
  const found = remoteConfigFile(file, env);
  if (!found) return new Map();
  return new Map(loadRemotes(found, native).map(({ config }) => [config.name, remoteVerifier(config, env)]));
}

function remoteVerifier(config: RemoteEnvironmentConfig, env: NodeJS.ProcessEnv): RemoteVerify {
  const client = new RemoteClient(config, { secrets: env });
  let mode: Promise<ReverifyMode> | undefined;
  return async (body) => {
    const signal = AbortSignal.timeout(config.timeouts.callMs);
    mode ??= config.reverify ? Promise.resolve(config.reverify) : client.reverifyMode(signal);
    const said = await mode;
    if (said !== "stateless") return { kind: "skip", reason: `${config.name}: the server's reverify_mode is ${said}` };
    try {
      const reply = await client.verify({ baseUrl: config.baseUrls[0]!, cookie: "" }, body as never, signal);
      const answer = parseJson(reply.text);
      if (reply.status !== 200) return { kind: "error", message: `${config.name} /verify answered ${reply.status}` };
      if (!answer || typeof answer !== "object" || typeof (answer as Json).reward !== "number")
        return { kind: "error", message: `${config.name} /verify answered no numeric reward` };
      return { kind: "ok", body: answer as Json };
    } catch (error) {
      return { kind: "error", message: `${config.name} /verify: ${error instanceof Error ? error.message : String(error)}` };
    }
  };
}
