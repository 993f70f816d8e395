// model-proxy: NeMo Gym's model server (/v1/responses, /v1/chat/completions) in front of a pool of vLLM upstreams.
import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import type { ModelProxyEnv } from "../../contracts/env.generated.js";
import { SESSION_HEADER } from "../../contracts/names.js";
import { notFound, onError, readJson } from "../../http/errors.js";
import { requestLog } from "../../http/request-log.js";
import { parseOr400, ResponsesCreateParams } from "../../protocol/index.js";
import { proxyConfig, proxyLog } from "./config.js";
import { rejectUnsupportedItems } from "./convert.js";
import { type CallContext, callModel, type ModelTurn, prepareChatBody } from "./model-call.js";
import { toChatCompletion } from "./respond.js";
import { callUpstream } from "./retry.js";
import { chatChunks, responseEvents } from "./stream.js";
import { respondTurn } from "./turn.js";
import { upstreamIndex } from "./redact.js";
import { poolHealth } from "./upstream.js";
import type { ChatBody } from "./wire.js";

type ProxyContext = Context<{ Bindings: ModelProxyEnv }>;

export const app = new Hono<{ Bindings: ModelProxyEnv }>();
app.onError(onError);
app.notFound(notFound);
app.use(requestLog((c) => proxyLog(c.env)));

function context(c: ProxyContext): CallContext {
  const sessionId = c.req.header(SESSION_HEADER);
  return { signal: c.req.raw.signal, ...(sessionId ? { sessionId } : {}), log: proxyLog(c.env).child({ request_id: c.get("requestId") }) };
}

/** Which upstream answered (its index in the pool, never its URL) and after how many attempts: for operators and tests. */
function traceHeaders(c: ProxyContext, turn: ModelTurn): void {
  c.header("x-edgegym-upstream", String(upstreamIndex(proxyConfig(c.env), turn.upstream)));
  c.header("x-edgegym-attempts", String(turn.attempts));
}

app.get("/health", (c) => c.json({ status: "ok", upstreams: poolHealth(proxyConfig(c.env).upstreams) }));

app.post("/v1/responses", async (c) => {
  const body = await readJson(c);
  // An item kind vLLM cannot take is named as such, before the schema would call it merely invalid.
  rejectUnsupportedItems(body);
  const params = parseOr400(ResponsesCreateParams, body, "responses request");
  const { response, turn } = await respondTurn(proxyConfig(c.env), params, context(c));
  traceHeaders(c, turn);
  if (!params.stream) return c.json(response);
  // The turn is complete already (vLLM is called without streaming): its events are written in OpenAI's order.
  return streamSSE(c, async (stream) => {
    for (const event of responseEvents(response)) await stream.writeSSE({ event: event.type, data: JSON.stringify(event) });
  });
});

const ChatRequest = z.looseObject({
  messages: z.array(z.looseObject({ role: z.string() })).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
});

app.post("/v1/chat/completions", async (c) => {
  const config = proxyConfig(c.env);
  const request = parseOr400(ChatRequest, await readJson(c), "chat completions request");
  const chat = prepareChatBody(config, request as ChatBody, request.metadata);
  const turn = await callModel(config, chat, context(c));
  const completion = toChatCompletion(turn);
  traceHeaders(c, turn);
  if (!request.stream) return c.json(completion);
  const includeUsage = request.stream_options?.include_usage === true;
  return streamSSE(c, async (stream) => {
    for (const chunk of chatChunks(completion, includeUsage)) await stream.writeSSE({ data: JSON.stringify(chunk) });
    await stream.writeSSE({ data: "[DONE]" });
  });
});

app.get("/v1/models", async (c) => {
  const result = await callUpstream(proxyConfig(c.env), { path: "/models", method: "GET", signal: c.req.raw.signal, accept: (json) => json });
  return c.json(result.kind === "ok" ? (result.value as object) : { object: "list", data: [] });
});
