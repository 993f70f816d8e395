// model-proxy: NeMo Gym's model-server protocol (/v1/responses) in front of an OpenAI-compatible Chat Completions upstream.
import { Hono } from "hono";
import { EdgegymError, ResponsesCreateParams, parseOr400 } from "../../protocol/index.js";
import type { ModelProxyEnv } from "../bindings.js";
import { notFound, onError, readJson } from "../shared/http.js";
import { fromChatCompletion, toChatRequest } from "./convert.js";
import { upstreamClient, upstreamError, upstreamFetch } from "./upstream.js";

export const app = new Hono<{ Bindings: ModelProxyEnv }>();
app.onError(onError);
app.notFound(notFound);

app.get("/health", (c) => c.json({ status: "ok" }));

app.post("/v1/responses", async (c) => {
  const params = parseOr400(ResponsesCreateParams, await readJson(c), "responses request");
  if (params.stream) throw new EdgegymError(400, "stream_unsupported", "stream: true is not supported on /v1/responses yet");
  const request = toChatRequest(params, c.env.MODEL_NAME);
  try {
    const completion = await upstreamClient(c.env).chat.completions.create(request, { signal: c.req.raw.signal });
    return c.json(fromChatCompletion(completion, params));
  } catch (error) {
    throw upstreamError(error, c.env.MODEL_BASE_URL);
  }
});

/** Chat Completions pass through untouched (streams too) but for the model name, which is the proxy's to choose. */
app.post("/v1/chat/completions", async (c) => {
  const body = await readJson(c);
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    throw new EdgegymError(400, "invalid_request", "a chat completions request is a JSON object");
  }
  const upstream = await upstreamFetch(c.env, "/chat/completions", {
    method: "POST",
    body: JSON.stringify({ ...body, model: c.env.MODEL_NAME }),
    signal: c.req.raw.signal,
  });
  return new Response(upstream.body, { status: upstream.status, headers: upstream.headers });
});

app.get("/v1/models", async (c) => {
  const upstream = await upstreamFetch(c.env, "/models", { method: "GET", signal: c.req.raw.signal });
  return new Response(upstream.body, { status: upstream.status, headers: upstream.headers });
});
