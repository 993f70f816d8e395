// model-proxy: NeMo Gym's model server (/v1/responses, /v1/chat/completions) in front of a pool of vLLM upstreams.
import { Hono, type Context } from "hono";
import { z } from "zod";
import { ResponsesCreateParams, parseOr400 } from "../../protocol/index.js";
import type { ModelProxyEnv } from "../bindings.js";
import { notFound, onError, readJson } from "../shared/http.js";
import { proxyConfig } from "./config.js";
import { rejectUnsupportedItems, toChatRequest } from "./convert.js";
import { callModel, prepareChatBody, type CallContext, type ModelTurn } from "./model-call.js";
import { toChatCompletion, toResponse } from "./respond.js";
import { callUpstream } from "./retry.js";
import { chatStream, responseStream } from "./stream.js";
import { poolHealth } from "./upstream.js";
import type { ChatBody } from "./wire.js";

/** The header that names a rollout's session; its turns all go to the same upstream. */
export const SESSION_HEADER = "x-session-id";

export const app = new Hono<{ Bindings: ModelProxyEnv }>();
app.onError(onError);
app.notFound(notFound);

function context(c: Context<{ Bindings: ModelProxyEnv }>): CallContext {
  const sessionId = c.req.header(SESSION_HEADER);
  return { signal: c.req.raw.signal, ...(sessionId ? { sessionId } : {}) };
}

/** Which upstream answered and after how many attempts: for operators and tests, never needed by clients. */
function traceHeaders(turn: ModelTurn): Record<string, string> {
  return { "x-edgegym-upstream": turn.upstream, "x-edgegym-attempts": String(turn.attempts) };
}

app.get("/health", (c) => c.json({ status: "ok", upstreams: poolHealth(proxyConfig(c.env).upstreams) }));

app.post("/v1/responses", async (c) => {
  const config = proxyConfig(c.env);
  const body = await readJson(c);
  rejectUnsupportedItems(body);
  const params = parseOr400(ResponsesCreateParams, body, "responses request");
  const chat = prepareChatBody(config, toChatRequest(params, config), params.metadata);
  const turn = await callModel(config, chat, context(c));
  const response = toResponse(turn, params);
  return params.stream ? responseStream(response, traceHeaders(turn)) : c.json(response, 200, traceHeaders(turn));
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
  if (request.stream) return chatStream(completion, request.stream_options?.include_usage === true, traceHeaders(turn));
  return c.json(completion, 200, traceHeaders(turn));
});

app.get("/v1/models", async (c) => {
  const result = await callUpstream(proxyConfig(c.env), { path: "/models", method: "GET", signal: c.req.raw.signal, accept: (json) => json });
  return c.json(result.kind === "ok" ? (result.value as object) : { object: "list", data: [] });
});
