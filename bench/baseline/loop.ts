// The baseline (c), a child process of the efficiency scenario: the least a rollout costs on this machine. A plain Node
// loop makes the same chat completions edgegym's model proxy makes, to the same simulator over HTTP (keep-alive), and
// runs the environment's seed, tools and verify in this process (its state in a Map): no Workers, no RPC, no queues.
//
// Asked over IPC: { type: "run", id, shape, count, concurrency } → { type: "done", id, tally }.
import { Agent, request } from "node:http";
import { perform } from "../../environments/sdk/perform.js";
import type { Environment, SessionState } from "../../environments/sdk/index.js";
import type { DatasetRow } from "../../protocol/index.js";
import { SINGLE_TOOL, type Shape, TEN_TURNS, type Tally } from "../cpu/workload.js";

export type LoopRequest = { type: "run"; id: number; shape: string; count: number; concurrency: number };
export type LoopReply = { type: "ready" } | { type: "done"; id: number; tally: Tally } | { type: "failed"; id: number; message: string };

const [baseUrl, model] = process.argv.slice(2);
if (!baseUrl || !model) throw new Error("usage: loop.ts <simulator base URL ending in /v1> <model>");
const shapes = new Map([SINGLE_TOOL, TEN_TURNS].map((shape) => [shape.name, shape]));
const environments = new Map<string, Environment>();
for (const shape of shapes.values()) {
  const module = (await import(`../../environments/${shape.environment}/index.ts`)) as { default: Environment };
  environments.set(shape.environment, module.default);
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const completions = new URL(`${baseUrl}/chat/completions`);

interface ChatMessage {
  role: string;
  content: unknown;
  tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

function post(body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      completions,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode === 200) resolve(text);
          else reject(new Error(`the simulator answered ${res.statusCode}: ${text.slice(0, 300)}`));
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** Session state in memory, as the session's Durable Object keeps it in edgegym. */
function memoryState(): SessionState<unknown> {
  let value: unknown;
  return {
    get: async () => value,
    set: async (next) => {
      value = next;
    },
  };
}

/** One rollout of NeMo Gym's simple agent, as a plain loop: seed, (model → tools)* until an answer, verify. */
async function rollout(shape: Shape, i: number): Promise<{ turns: number; reward: number }> {
  const environment = environments.get(shape.environment)!;
  if (environment.kind !== "simple") throw new Error(`${shape.environment} is not a simple environment`);
  const row = shape.row(i) as DatasetRow;
  const context = { sessionId: `baseline-${i}`, state: memoryState(), signal: AbortSignal.timeout(60_000) };
  const seeded = await perform(environment, { kind: "seed_session" }, row, context, true);
  if (seeded.status !== 200) throw new Error(`seed answered ${seeded.status}`);

  const params = row.responses_create_params as { input: { role: string; content: string }[]; tools: Record<string, unknown>[] };
  // What the proxy sends: developer as system, tools in the chat form without `strict`.
  const messages: ChatMessage[] = params.input.map((m) => ({ role: m.role === "developer" ? "system" : m.role, content: m.content }));
  const tools = params.tools.map(({ name, description, parameters }) => ({ type: "function", function: { name, description, parameters } }));
  let turns = 0;
  for (let step = 0; step < 32; step++) {
    const completion = JSON.parse(await post(JSON.stringify({ model, messages, tools, stream: false }))) as {
      choices: { message: { content: string | null; tool_calls?: ChatMessage["tool_calls"] } }[];
    };
    turns++;
    const message = completion.choices[0]!.message;
    const calls = message.tool_calls ?? [];
    messages.push({ role: "assistant", content: message.content || null, ...(calls.length ? { tool_calls: calls } : {}) });
    if (calls.length === 0) break;
    for (const call of calls) {
      const outcome = await perform(environment, { kind: "tool", name: call.function.name }, JSON.parse(call.function.arguments), context, true);
      messages.push({ role: "tool", tool_call_id: call.id, content: JSON.stringify(outcome.body) });
    }
  }
  const verified = await perform(environment, { kind: "verify" }, { ...row, response: { output: messages } }, context, true);
  if (verified.status !== 200) throw new Error(`verify answered ${verified.status}`);
  return { turns, reward: Number((verified.body as { reward?: unknown }).reward ?? 0) };
}

async function run(shape: Shape, count: number, concurrency: number): Promise<Tally> {
  const tally: Tally = { rollouts: 0, failed: 0, turns: 0, reward: 0 };
  let next = 0;
  const worker = async () => {
    while (next < count) {
      try {
        const { turns, reward } = await rollout(shape, next++);
        tally.rollouts++;
        tally.turns += turns;
        tally.reward += reward;
      } catch {
        // Counted: the scenario refuses a window with failures.
        tally.failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return tally;
}

process.on("message", (message: LoopRequest) => {
  const shape = shapes.get(message.shape);
  if (!shape) {
    process.send!({ type: "failed", id: message.id, message: `no shape ${message.shape}` } satisfies LoopReply);
    return;
  }
  run(shape, message.count, message.concurrency).then(
    (tally) => process.send!({ type: "done", id: message.id, tally } satisfies LoopReply),
    (error: unknown) => process.send!({ type: "failed", id: message.id, message: String(error) } satisfies LoopReply),
  );
});
process.on("disconnect", () => process.exit(0));
process.send!({ type: "ready" } satisfies LoopReply);
