// The bench's rollouts, through the gateway's public HTTP surface only: POST /run, and POST /v1/jobs + GET /v1/jobs/:id.
import { setTimeout as sleep } from "node:timers/promises";

/** The bearer token every checkout's emulation is started with (bench/cpu/host.ts): the host answers it as the token to send. */
export const BENCH_TOKEN = "edgegym_bench_token_0123456789abcdef";

export interface Shape {
  name: string;
  environment: string;
  /** The i-th dataset row (NeMo Gym's format). */
  row(i: number): Record<string, unknown>;
}

const WEATHER_TOOL = {
  type: "function",
  name: "get_weather",
  description: "",
  strict: true,
  parameters: { type: "object", properties: { city: { type: "string", description: "" } }, required: ["city"], additionalProperties: false },
};
const COUNTER_TOOLS = [
  {
    type: "function",
    name: "increment_counter",
    description: "",
    strict: true,
    parameters: { type: "object", properties: { count: { type: "integer", description: "" } }, required: ["count"], additionalProperties: false },
  },
  {
    type: "function",
    name: "get_counter_value",
    description: "",
    strict: true,
    parameters: { type: "object", properties: {}, required: [], additionalProperties: false },
  },
];

/** NeMo Gym's example_single_tool_call row: the simulator calls get_weather once, then answers (2 model calls). */
export const SINGLE_TOOL: Shape = {
  name: "1-tool",
  environment: "example_single_tool_call",
  row: (i) => ({
    responses_create_params: {
      input: [
        { role: "developer", content: "You are a helpful personal assistant that aims to be helpful and reduce any pain points the user has." },
        { role: "user", content: `what's it like in sf on day ${i}?` },
      ],
      tools: [WEATHER_TOOL],
    },
  }),
};

/**
 * A counter row (example_session_state_mgmt) whose request alternates increments and reads: the simulator's counter
 * planner never merges a read with an increment, so each of the 9 calls is its own model turn, then 1 answer: 10 turns.
 */
export const TEN_TURNS: Shape = {
  name: "10-turn",
  environment: "example_session_state_mgmt",
  row: (i) => {
    const adds = [1, 2, 3, 4, 5].map((n) => n + (i % 7));
    const request = adds.map((n) => `add ${n}`).join(" then get the count then ");
    const initial = i % 5;
    return {
      responses_create_params: { input: [{ role: "user", content: request }], tools: COUNTER_TOOLS },
      initial_count: initial,
      expected_count: initial + adds.reduce((a, b) => a + b, 0),
    };
  },
};

/** Model turns in a record: runs of model output items, each run ended by the tool outputs the agent adds. */
export function modelTurns(record: unknown): number {
  const output = (record as { response?: { output?: { type?: string }[] } }).response?.output ?? [];
  let turns = 0;
  let inTurn = false;
  for (const item of output) {
    if (item.type === "function_call_output") inTurn = false;
    else if (!inTurn) {
      turns++;
      inTurn = true;
    }
  }
  return turns;
}

/** What the records of a batch of rollouts say: successes, model turns and reward, summed. */
export interface Tally {
  rollouts: number;
  failed: number;
  turns: number;
  reward: number;
  /** /run calls that went unanswered for HUNG_MS and were sent again. */
  hung?: number;
}

function add(tally: Tally, record: Record<string, unknown>): void {
  tally.rollouts++;
  tally.turns += modelTurns(record);
  tally.reward += typeof record["reward"] === "number" ? record["reward"] : 0;
}

/** How long a /run call may go unanswered before it counts as hung (a rollout at zero model latency takes milliseconds). */
const HUNG_MS = 60_000;

/** `count` rollouts through POST /run, `concurrency` in flight; the records come back in the answers. */
export async function runDirect(url: string, shape: Shape, count: number, concurrency: number, headers: Record<string, string> = {}): Promise<Tally> {
  const tally: Tally = { rollouts: 0, failed: 0, turns: 0, reward: 0 };
  const target = `${url}/run?environment=${encodeURIComponent(shape.environment)}`;
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const body = JSON.stringify(shape.row(next++));
      for (;;) {
        try {
          // A call unanswered for HUNG_MS is counted as hung and sent again, so the window still ends with `count` records.
          const response = await fetch(target, {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body,
            signal: AbortSignal.timeout(HUNG_MS),
          });
          const text = await response.text();
          if (response.ok) add(tally, JSON.parse(text) as Record<string, unknown>);
          else tally.failed++;
          break;
        } catch (error) {
          if (!(error instanceof DOMException && error.name === "TimeoutError")) throw error;
          tally.hung = (tally.hung ?? 0) + 1;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return tally;
}

/** The same rollouts through POST /run/batch: requests of up to 1,024 rows, `concurrency` of them in flight on the gateway. */
export async function runBatched(url: string, shape: Shape, count: number, concurrency: number, headers: Record<string, string> = {}): Promise<Tally> {
  const tally: Tally = { rollouts: 0, failed: 0, turns: 0, reward: 0 };
  const target = `${url}/run/batch?environment=${encodeURIComponent(shape.environment)}&concurrency=${concurrency}`;
  for (let start = 0; start < count; start += 1024) {
    const rows = Array.from({ length: Math.min(1024, count - start) }, (_, i) => shape.row(start + i));
    const response = await fetch(target, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify({ rows }) });
    if (!response.ok) throw new Error(`/run/batch answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    for (const line of (await response.text()).split("\n")) {
      if (line === "") continue;
      const parsed = JSON.parse(line) as { record?: Record<string, unknown>; error?: unknown; done?: boolean };
      if (parsed.record) add(tally, parsed.record);
      else if (parsed.error) tally.failed++;
    }
  }
  return tally;
}

interface JobStatus {
  id: string;
  status: string;
  counts: { total: number; done: number; failed: number };
}

/** One job of `rows` rows × `repeats`, uploaded as JSONL, polled every `pollMs` until it is no longer running. */
export async function runJob(
  url: string,
  shape: Shape,
  rows: number,
  repeats: number,
  pollMs: number,
  headers: Record<string, string> = {},
): Promise<JobStatus> {
  const body = `${Array.from({ length: rows }, (_, i) => JSON.stringify(shape.row(i))).join("\n")}\n`;
  const query = new URLSearchParams({ environment: shape.environment, num_repeats: String(repeats) });
  const created = await fetch(`${url}/v1/jobs?${query}`, { method: "POST", headers: { ...headers, "content-type": "application/x-ndjson" }, body });
  if (!created.ok) throw new Error(`POST /v1/jobs answered ${created.status}: ${await created.text()}`);
  let job = (await created.json()) as JobStatus;
  while (job.status === "running") {
    await sleep(pollMs);
    const polled = await fetch(`${url}/v1/jobs/${job.id}`, { headers });
    if (!polled.ok) throw new Error(`GET /v1/jobs/${job.id} answered ${polled.status}: ${await polled.text()}`);
    job = (await polled.json()) as JobStatus;
  }
  return job;
}

/** The job's scored records (GET /v1/jobs/:id/rollouts), tallied; read after the measured window. */
export async function jobTally(url: string, job: JobStatus, headers: Record<string, string> = {}): Promise<Tally> {
  const response = await fetch(`${url}/v1/jobs/${job.id}/rollouts`, { headers });
  if (!response.ok) throw new Error(`GET /v1/jobs/${job.id}/rollouts answered ${response.status}`);
  const tally: Tally = { rollouts: 0, failed: job.counts.failed, turns: 0, reward: 0 };
  for (const line of (await response.text()).split("\n")) if (line.trim()) add(tally, JSON.parse(line) as Record<string, unknown>);
  return tally;
}
