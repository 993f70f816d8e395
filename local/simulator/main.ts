// Command-line entry: `npx tsx local/simulator/main.ts --port 8000 --latency-ms 0` runs the simulator until stopped.
import { parseArgs } from "node:util";
import type { ReasoningField } from "./completion.js";
import type { LatencySpec } from "./latency.js";
import { startSimulator, type SimulatorLogger } from "./server.js";

const USAGE = `Usage: tsx local/simulator/main.ts [options]
  --port <n>          port to listen on (default 8000; 0 picks a free one)
  --host <addr>       address to bind (default 127.0.0.1)
  --model <id>        served model id (default edgegym-sim)
  --latency-ms <ms>   delay per answer: a number, a range "min-max", or "median~p99" (log-normal) (default 0)
  --seed <n>          seed for sampled latencies and faults (default 1)
  --max-model-len <n> context window (default 32768)
  --error-rate <r>    share of chat completions answered with an error (0-1, default 0)
  --error-status <s>  status of those errors, or a comma list to pick from (default 503)
  --drop-rate <r>     share of chat completions whose connection is closed without an answer
  --malformed-rate <r> share of chat completions answered 200 with a body cut short
  --hang-rate <r>     share of chat completions never answered (held, then dropped: the client's timeout ends them)
  --spike-rate <r>    share of chat completions delayed by --spike-ms on top of their latency
  --spike-ms <ms>     the extra delay of a latency spike (default 0)
  --reasoning         think before every answer (a reasoning model), not only when asked
  --reasoning-field <name>  reasoning_content (vLLM < 0.16, default) or reasoning
  --no-token-ids      ignore return_token_ids, as vLLM before 0.10.2
  --api-key <key>     require "Authorization: Bearer <key>" on /v1 routes
  --quiet             do not log requests
  --help              show this help`;

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

function rate(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!(parsed >= 0 && parsed <= 1)) throw new Error(`--${name} must be between 0 and 1, got "${value}"`);
  return parsed;
}

function latency(value: string | undefined): LatencySpec {
  if (value === undefined) return 0;
  const tail = /^(\d+(?:\.\d+)?)\s*~\s*(\d+(?:\.\d+)?)$/.exec(value);
  if (tail) return { median: Number(tail[1]), p99: Number(tail[2]) };
  const range = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)$/.exec(value);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  const fixed = Number(value);
  if (!Number.isFinite(fixed) || fixed < 0) throw new Error(`--latency-ms must be a number or "min-max", got "${value}"`);
  return fixed;
}

function reasoningField(value: string | undefined): ReasoningField {
  if (value === undefined || value === "reasoning_content" || value === "reasoning") return value ?? "reasoning_content";
  throw new Error(`--reasoning-field must be reasoning_content or reasoning, got "${value}"`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string" },
      host: { type: "string" },
      model: { type: "string" },
      "latency-ms": { type: "string" },
      seed: { type: "string" },
      "max-model-len": { type: "string" },
      "error-rate": { type: "string" },
      "error-status": { type: "string" },
      "drop-rate": { type: "string" },
      "malformed-rate": { type: "string" },
      "hang-rate": { type: "string" },
      "spike-rate": { type: "string" },
      "spike-ms": { type: "string" },
      reasoning: { type: "boolean", default: false },
      "reasoning-field": { type: "string" },
      "no-token-ids": { type: "boolean", default: false },
      "api-key": { type: "string" },
      quiet: { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const log: SimulatorLogger | undefined = values.quiet
    ? undefined
    : {
        info: (message) => process.stdout.write(`${message}\n`),
        warn: (message) => process.stderr.write(`${message}\n`),
      };
  const simulator = await startSimulator({
    port: integer(values.port, "port", 8000),
    host: values.host ?? "127.0.0.1",
    model: values.model ?? "edgegym-sim",
    latencyMs: latency(values["latency-ms"]),
    seed: integer(values.seed, "seed", 1),
    maxModelLen: integer(values["max-model-len"], "max-model-len", 32768),
    faults: {
      errorRate: rate(values["error-rate"], "error-rate"),
      errorStatus: values["error-status"]?.split(",").map((status) => integer(status.trim(), "error-status", 503)),
      dropRate: rate(values["drop-rate"], "drop-rate"),
      malformedRate: rate(values["malformed-rate"], "malformed-rate"),
      hangRate: rate(values["hang-rate"], "hang-rate"),
      spikeRate: rate(values["spike-rate"], "spike-rate"),
      spikeMs: integer(values["spike-ms"], "spike-ms", 0),
    },
    reasoning: values.reasoning,
    reasoningField: reasoningField(values["reasoning-field"]),
    supportsReturnTokenIds: !values["no-token-ids"],
    ...(values["api-key"] ? { apiKey: values["api-key"] } : {}),
    ...(log ? { log } : {}),
  });
  process.stdout.write(`vLLM simulator serving "${simulator.model}" at ${simulator.url} (OpenAI base URL ${simulator.url}/v1)\n`);

  const stop = (): void => {
    void simulator.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
  process.exit(1);
});
