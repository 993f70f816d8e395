// Scenario 5, the model proxy: the latency it adds to a model call (p50, p99), against calling the simulator directly in
// the same run. Calls alternate between the paths, one at a time, so each path sees the same share of the machine's noise.
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import path from "node:path";
import { proxyConfig } from "../../functions/model-proxy/config.js";
import { toChatRequest } from "../../functions/model-proxy/convert.js";
import { prepareChatBody } from "../../functions/model-proxy/model-call.js";
import { ResponsesCreateParams } from "../../protocol/index.js";
import { BENCH_ROOT, startHost, startSimulatorProcess } from "../cpu/processes.js";
import { emit, type Figure, percentile, progress, quick } from "../lib/report.js";

const CALLS = quick() ? 500 : 3000;
const WARMUP = 200;
const started = performance.now();
const say = progress("proxy", started);

// A real NeMo Gym row: a developer message, a user question and a tool (example_single_tool_call, first example).
const row = JSON.parse(readFileSync(path.join(BENCH_ROOT, "tests/fixtures/nemo-gym/example_single_tool_call/example.jsonl"), "utf8").split("\n")[0]!) as {
  responses_create_params: unknown;
};
const params = ResponsesCreateParams.parse(row.responses_create_params);

// One keep-alive connection per path, as a client with a connection pool has.
const agent = new Agent({ keepAlive: true, maxSockets: 4 });
function post(url: string, body: string, headers: Record<string, string>): () => Promise<number> {
  const target = new URL(url);
  return () =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      const req = request(
        target,
        { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), ...headers } },
        (res) => {
          res.on("data", () => undefined);
          res.on("end", () => (res.statusCode === 200 ? resolve(performance.now() - t) : reject(new Error(`${url} answered ${res.statusCode}`))));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
}
function get(url: string, headers: Record<string, string>): () => Promise<number> {
  return () =>
    new Promise((resolve, reject) => {
      const t = performance.now();
      request(url, { agent, headers }, (res) => {
        res.on("data", () => undefined);
        res.on("end", () => resolve(performance.now() - t));
      })
        .on("error", reject)
        .end();
    });
}

const simulator = await startSimulatorProcess();
const host = await startHost(BENCH_ROOT, simulator, [], { vars: { gateway: { RATE_LIMIT_PER_SECOND: "0" } } });
try {
  // The direct call sends vLLM exactly what the proxy would, so both paths ask the model for the same work.
  const config = proxyConfig({ MODEL_BASE_URL: simulator.baseUrl, MODEL_NAME: simulator.model } as Parameters<typeof proxyConfig>[0]);
  const chatBody = prepareChatBody(config, toChatRequest(params, config), params.metadata);
  const session = { ...host.headers, "x-session-id": "bench-session" };
  const paths = {
    direct: post(`${simulator.baseUrl}/chat/completions`, JSON.stringify({ ...chatBody, stream: false }), {}),
    chat: post(`${host.url}/v1/chat/completions`, JSON.stringify({ messages: chatBody.messages, tools: chatBody.tools }), session),
    responses: post(`${host.url}/v1/responses`, JSON.stringify(params), session),
    floor: get(`${host.url}/health`, host.headers),
  };
  const samples: Record<keyof typeof paths, number[]> = { direct: [], chat: [], responses: [], floor: [] };
  for (let i = 0; i < WARMUP + CALLS; i++) {
    for (const [name, call] of Object.entries(paths) as [keyof typeof paths, () => Promise<number>][]) {
      const ms = await call();
      if (i >= WARMUP) samples[name].push(ms);
    }
  }
  for (const list of Object.values(samples)) list.sort((a, b) => a - b);
  const p = (name: keyof typeof paths, q: number) => percentile(samples[name], q);
  say(
    `direct p50 ${p("direct", 50).toFixed(2)} / p99 ${p("direct", 99).toFixed(2)} ms; through the gateway and proxy: ` +
      `chat ${p("chat", 50).toFixed(2)} / ${p("chat", 99).toFixed(2)}, responses ${p("responses", 50).toFixed(2)} / ${p("responses", 99).toFixed(2)} ms`,
  );
  const figures: Figure[] = [
    { id: "proxy.direct_p50_ms", label: "simulator called directly: p50", value: p("direct", 50), unit: "ms" },
    { id: "proxy.direct_p99_ms", label: "simulator called directly: p99", value: p("direct", 99), unit: "ms" },
    { id: "proxy.responses_added_p50_ms", label: "added by gateway + proxy, /v1/responses: p50", value: p("responses", 50) - p("direct", 50), unit: "ms" },
    {
      id: "proxy.responses_added_p99_ms",
      label: "added by gateway + proxy, /v1/responses: p99",
      value: p("responses", 99) - p("direct", 99),
      unit: "ms",
      target: { op: "<", value: 2 },
    },
    { id: "proxy.chat_added_p50_ms", label: "added by gateway + proxy, /v1/chat/completions: p50", value: p("chat", 50) - p("direct", 50), unit: "ms" },
    {
      id: "proxy.chat_added_p99_ms",
      label: "added by gateway + proxy, /v1/chat/completions: p99",
      value: p("chat", 99) - p("direct", 99),
      unit: "ms",
      target: { op: "<", value: 2 },
    },
    { id: "proxy.transport_floor_p50_ms", label: "gateway GET /health (the local HTTP hop alone): p50", value: p("floor", 50), unit: "ms" },
  ];
  emit({
    scenario: "proxy",
    title: `Model proxy: latency added per model call (${CALLS} sequential calls per path, simulator latency 0)`,
    seconds: (performance.now() - started) / 1000,
    figures,
    details: Object.fromEntries(Object.keys(paths).map((name) => [name, { p50: p(name as keyof typeof paths, 50), p99: p(name as keyof typeof paths, 99) }])),
  });
} finally {
  agent.destroy();
  await host.stop();
  await simulator.stop();
}
