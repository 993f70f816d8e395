// What the gateway passes on to the Worker behind a route (the request without its bearer token, with the caller's name),
// and what it passes back (that Worker's answer, its error envelope given the gateway's request id).
import type { Context } from "hono";
import { CALLER_HEADER } from "../../contracts/names.js";
import { concat } from "../../http/jsonl.js";
import { callerOf, type GatewayContext } from "./caller.js";

/**
 * The token stops here; the Worker behind learns who called from CALLER_HEADER, which no outside caller can set, and
 * that the caller came over HTTPS from X-Forwarded-Proto (its URL is an internal one), so a cookie it sets is Secure.
 */
export function forwarded(c: Context<GatewayContext>): Request {
  const headers = new Headers(c.req.raw.headers);
  headers.delete("authorization");
  headers.set(CALLER_HEADER, callerOf(c).name);
  if (new URL(c.req.url).protocol === "https:") headers.set("x-forwarded-proto", "https");
  return new Request(c.req.raw, { headers });
}

/** Error bodies are small envelopes; anything larger is passed on as it is. */
const MAX_ERROR_BODY = 64 * 1024;

/** A body's text when it is at most `max` bytes, else undefined (the copy is dropped, the original is untouched). */
async function smallText(response: Response, max: number): Promise<string | undefined> {
  const copy = response.clone().body;
  if (!copy) return "";
  const reader = copy.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concat(chunks, size));
}

/**
 * The answer of a Worker behind the gateway (the model proxy, an environment). Its error envelope was made there, where
 * the gateway's request id is not known: the id is added to its `error` object here, as every gateway error carries it.
 * Any other answer, a success or a body that is not an envelope, passes as it came.
 */
export async function fromBehind(c: Context<GatewayContext>, answer: Response): Promise<Response> {
  if (answer.status < 400 || !(answer.headers.get("content-type") ?? "").includes("application/json")) return answer;
  const text = await smallText(answer, MAX_ERROR_BODY);
  if (text === undefined) return answer;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return answer;
  }
  if (!body || typeof body !== "object" || !("error" in body) || !body.error || typeof body.error !== "object") return answer;
  const headers = new Headers(answer.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, error: { ...body.error, request_id: c.get("requestId") } }), { status: answer.status, headers });
}
