// Command-line entry: `npx tsx local/simulator/main.ts --port 8000 --latency-ms 0` runs the simulator until stopped.
import { parseArgs } from "node:util";
import type { LatencySpec } from "./latency.js";
import { startSimulator, type SimulatorLogger } from "./server.js";

const USAGE = `Usage: tsx local/simulator/main.ts [options]
  --port <n>          port to listen on (default 8000; 0 picks a free one)
  --host <addr>       address to bind (default 127.0.0.1)
  --model <id>        served model id (default edgegym-sim)
  --latency-ms <ms>   delay per answer: a number, or a range "min-max" (default 0)
  --seed <n>          seed for sampled latencies (default 1)
  --max-model-len <n> context window (default 32768)
  --quiet             do not log requests
  --help              show this help`;

function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return parsed;
}

function latency(value: string | undefined): LatencySpec {
  if (value === undefined) return 0;
  const range = /^(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)$/.exec(value);
  if (range) return { min: Number(range[1]), max: Number(range[2]) };
  const fixed = Number(value);
  if (!Number.isFinite(fixed) || fixed < 0) throw new Error(`--latency-ms must be a number or "min-max", got "${value}"`);
  return fixed;
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
