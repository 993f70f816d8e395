// A remote server's replies as edgegym's operation answers (contracts/rpc.ts Outcome), the same for the Worker's session
// object and the in-process runner: what the model sees from a tool, what a verify adds to the record, what fails.
import type { EnvironmentDescription, Outcome, RpcResult } from "../../../contracts/rpc.js";
import type { RemoteEnvironmentConfig, RemoteSession } from "../../../contracts/remote.js";
import { lines } from "../../../http/jsonl.js";
import { aggregateMetrics } from "../../../metrics/index.js";
import { type AggregateMetrics, EdgegymError, type ErrorStatus, type VerifyResult } from "../../../protocol/index.js";
import { parseJson, type RemoteClient, RemoteFaultError, type RemoteReply } from "./client.js";

export function describeRemote(config: RemoteEnvironmentConfig): EnvironmentDescription {
  return {
    kind: "simple",
    name: config.name,
    description: config.description ?? `NeMo Gym resources server at ${config.baseUrls.length} URL(s)`,
    stateful: config.stateful,
    tools: config.tools.from === "config" ? config.tools.tools : [],
  };
}

function envelope(status: ErrorStatus, code: string, message: string): Outcome {
  return { status, body: new EdgegymError(status, code, message).toEnvelope() };
}

/**
 * The body as edgegym carries it: the JSON value, which the agent writes back with JSON.stringify; a body that is not
 * JSON stays its text. For a compact JSON answer (FastAPI's JSONResponse, Hono's c.json) the model sees the server's
 * text byte for byte, as NeMo Gym's agent shows it.
 */
function bodyOf(text: string): unknown {
  const json = parseJson(text);
  return json === undefined ? text : json;
}

/** The seed's answer, and the session to keep when it opened one. */
export function seedOutcome(reply: RemoteReply): { outcome: Outcome; session?: RemoteSession } {
  if (reply.status !== 200) return { outcome: { status: reply.status, body: bodyOf(reply.text) } };
  const body = parseJson(reply.text);
  if (body === undefined) return { outcome: envelope(502, "remote_bad_answer", "/seed_session answered 200 without JSON") };
  return { outcome: { status: 200, body: body && typeof body === "object" ? body : {} }, session: reply.session };
}

/** A tool's answer, any status, is what the model sees (NeMo Gym's agent shows resources-server errors too). */
export function toolOutcome(reply: RemoteReply): Outcome {
  return { status: reply.status, body: bodyOf(reply.text) };
}

/** A fault inside a tool call that the model should see rather than the rollout fail on (a huge or odd answer). */
export function toolFault(error: unknown): Outcome {
  if (error instanceof RemoteFaultError && error.fault === "remote_bad_answer") return envelope(502, "remote_bad_answer", error.message);
  throw error;
}

/** The fields the request does not already hold: the verify response is the request plus these (contracts/rpc.ts). */
const REQUEST_FIELDS = new Set(["responses_create_params", "response"]);

/** A trusted caller (the agent) gets the fields the request lacks; an outside one the server's whole verify response. */
export function verifyOutcome(reply: RemoteReply, trusted = true): Outcome {
  if (reply.status !== 200) return { status: reply.status, body: bodyOf(reply.text) };
  const body = parseJson(reply.text);
  if (!body || typeof body !== "object" || Array.isArray(body)) return envelope(502, "remote_bad_answer", "/verify answered 200 without a JSON object");
  const fields = trusted ? Object.fromEntries(Object.entries(body).filter(([key]) => !REQUEST_FIELDS.has(key))) : (body as Record<string, unknown>);
  if (typeof fields.reward !== "number") return envelope(502, "remote_bad_answer", "/verify answered without a numeric reward");
  return { status: 200, body: fields };
}

/** The server's own /aggregate_metrics when it has one, else NeMo Gym's default metrics computed here. */
export async function remoteMetrics(client: RemoteClient, verifyResponses: ReadableStream<Uint8Array>): Promise<RpcResult<AggregateMetrics>> {
  const responses: VerifyResult[] = [];
  for await (const line of lines(verifyResponses)) if (line) responses.push(JSON.parse(line) as VerifyResult);
  try {
    if (client.config.aggregateMetrics) {
      try {
        return { ok: true, value: await client.aggregateMetrics(responses, AbortSignal.timeout(client.config.timeouts.callMs)) };
      } catch (error) {
        // A server without the route (404) gets the default; any other failure is said as it is.
        if (!(error instanceof RemoteFaultError && error.status === 404)) throw error;
      }
    }
    return { ok: true, value: aggregateMetrics(responses) };
  } catch (error) {
    return { ok: false, error: { status: 502, code: "aggregate_metrics_failed", message: error instanceof Error ? error.message : String(error) } };
  }
}

/** The gymnasium operations a remote (simple) server does not have. */
export const NOT_GYMNASIUM = envelope(404, "not_gymnasium", "a remote NeMo Gym resources server is a simple environment: use seed_session, tools and verify");
