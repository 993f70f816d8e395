// The model proxy's added latency per call (p50, p99) as a ratio to calling the simulator directly, in the same run.
import { readFileSync } from "node:fs";
import { proxyConfig } from "../functions/model-proxy/config.js";
import { rejectUnsupportedItems, toChatRequest } from "../functions/model-proxy/convert.js";
import { callModel, prepareChatBody } from "../functions/model-proxy/model-call.js";
import { toResponse } from "../functions/model-proxy/respond.js";
import { startLocal, type Local } from "../local/emulation.js";
import { ResponsesCreateParams } from "../protocol/index.js";

const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = 100;

// A real NeMo Gym row: a developer message, a user question and a tool (example_single_tool_call, first example).
const row = JSON.parse(readFileSync(new URL("../tests/fixtures/nemo-gym/example_single_tool_call/example.jsonl", import.meta.url), "utf8").split("\n")[0]!) as {
  responses_create_params: unknown;
};
const params = ResponsesCreateParams.parse(row.responses_create_params);

/** What a measurement reads of an answer: a fetch Response, or the in-process path's stand-in for one. */
interface Answer {
  ok: boolean;
  status: number;
  arrayBuffer(): Promise<unknown>;
}

interface Path {
  name: string;
  call: () => Promise<Answer>;
}

/** The simulator's answer, read as often as asked: built once, so no Response is made per call (Node's cost more than workerd's). */
class CannedResponse extends Response {
  constructor(private readonly canned: string) {
    super(null, { status: 200 });
  }
  override text(): Promise<string> {
    return Promise.resolve(this.canned);
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function timed(path: Path): Promise<number> {
  const started = performance.now();
  const response = await path.call();
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${path.name} answered ${response.status}`);
  return ms;
}

/** Calls every path in turn, CALLS times, so they share the machine's noise; returns each path's sorted latencies. */
async function measure(paths: Path[]): Promise<Map<string, number[]>> {
  for (let i = 0; i < WARMUP; i++) for (const path of paths) await timed(path);
  const samples = new Map(paths.map((path) => [path.name, [] as number[]]));
  for (let i = 0; i < CALLS; i++) for (const path of paths) samples.get(path.name)!.push(await timed(path));
  for (const list of samples.values()) list.sort((a, b) => a - b);
  return samples;
}

function post(url: string, body: unknown, headers: Record<string, string> = {}): () => Promise<Response> {
  const text = JSON.stringify(body);
  return () => fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: text });
}

async function scenario(title: string, vars: Record<string, string>): Promise<void> {
  const local: Local = await startLocal({ port: 0, persist: false, environments: [], vars: { modelProxy: vars } });
  const auth = { authorization: `Bearer ${local.token}` };
  try {
    const sim = local.simulator!;
    // The direct call sends vLLM exactly what the proxy would, so both paths ask the model for the same work.
    const config = proxyConfig({ MODEL_BASE_URL: local.modelBaseUrl, MODEL_NAME: sim.model, ...vars });
    const chatBody = prepareChatBody(config, toChatRequest(params, config), params.metadata);
    const session = { "x-session-id": "bench-session" };
    const paths: Path[] = [
      { name: "direct: simulator /v1/chat/completions", call: post(`${sim.url}/v1/chat/completions`, chatBody) },
      { name: "gateway → model-proxy /v1/responses", call: post(`${local.url}/v1/responses`, params, { ...session, ...auth }) },
      {
        name: "gateway → model-proxy /v1/chat/completions",
        call: post(`${local.url}/v1/chat/completions`, { messages: chatBody.messages, tools: chatBody.tools }, { ...session, ...auth }),
      },
    ];
    // For reference: the local transport alone (Node → workerd → Node, no model call), and the proxy's logic alone.
    const floor: Path = { name: "gateway GET /health (transport floor)", call: () => fetch(`${local.url}/health`) };
    paths.push(floor);
    // The proxy's own work, without the network: the same steps app.ts takes, in this process, against a canned
    // simulator answer (Node's own Request/Response objects left out: they cost more here than workerd's do).
    const canned = await (await post(`${sim.url}/v1/chat/completions`, chatBody)()).text();
    const cannedAnswer = new CannedResponse(canned);
    const requestText = JSON.stringify(params);
    const realFetch = globalThis.fetch;
    const inProcess: Path = {
      name: "proxy logic alone (in process)",
      call: async () => {
        globalThis.fetch = async () => cannedAnswer;
        try {
          const body: unknown = JSON.parse(requestText);
          rejectUnsupportedItems(body);
          const request = ResponsesCreateParams.parse(body);
          const turn = await callModel(config, prepareChatBody(config, toChatRequest(request, config), request.metadata), { sessionId: "bench-session" });
          const text = JSON.stringify(toResponse(turn, request));
          return { ok: true, status: 200, arrayBuffer: async () => text };
        } finally {
          globalThis.fetch = realFetch;
        }
      },
    };
    paths.push(inProcess);
    const samples = await measure(paths);
    const direct = samples.get(paths[0]!.name)!;
    const [d50, d99] = [percentile(direct, 50), percentile(direct, 99)];
    process.stdout.write(`\n${title}: ${CALLS} sequential calls per path after ${WARMUP} warm-up, simulator latency 0\n`);
    process.stdout.write(
      `${"path".padEnd(44)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"p50 ×".padStart(6)} ${"p99 ×".padStart(6)} ${"added p50/p99 ms".padStart(17)}\n`,
    );
    for (const path of paths) {
      const list = samples.get(path.name)!;
      const [p50, p99] = [percentile(list, 50), percentile(list, 99)];
      const reference = path === paths[0] || path === inProcess || path === floor;
      const added = reference ? "" : `${(p50 - d50).toFixed(2)} / ${(p99 - d99).toFixed(2)}`;
      process.stdout.write(
        `${path.name.padEnd(44)} ${p50.toFixed(2).padStart(7)} ${p99.toFixed(2).padStart(7)} ${(p50 / d50).toFixed(2).padStart(6)} ${(p99 / d99).toFixed(2).padStart(6)} ${added.padStart(17)}\n`,
      );
    }
  } finally {
    await local.stop();
  }
}

await scenario("token ids off", {});
await scenario("token ids on (RETURN_TOKEN_ID_INFORMATION=true)", { RETURN_TOKEN_ID_INFORMATION: "true" });
