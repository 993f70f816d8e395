// Issue 24's figures, in one run: the overhead edgegym adds per tool call and per rollout on a remote NeMo Gym server,
// against calling the same server directly as NeMo Gym's simple agent does (seed → tools → verify, cookie carried).
// Paths: direct fetch; edgegym in process (the AWS Lambda's path: runRollout over the remote EnvironmentRpc, a model that
// answers at once); edgegym in workerd (gateway → remote environment Worker → session Durable Object → server).
//
//   npm run bench -- --only remote      (or alone: npx tsx bench/scenarios/remote.ts [--rollouts 200] [--tools 3] [--quick])
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import { parseRemoteFile } from "../../environments/sdk/remote/config.js";
import { remoteEnvironment } from "../../environments/sdk/remote/in-process.js";
import { runRollout } from "../../functions/agent/rollout.js";
import { startLocal } from "../../local/emulation.js";
import { PROJECT_ROOT } from "../../local/paths.js";
import type { DatasetRow, Response as ModelResponse } from "../../protocol/index.js";
import { emit, type Figure, quick } from "../lib/report.js";

const { values } = parseArgs({
  options: { rollouts: { type: "string" }, tools: { type: "string", default: "3" }, quick: { type: "boolean", default: false } },
});
const ROLLOUTS = Number(values.rollouts ?? (quick() ? 50 : 200));
const TOOLS = Number(values.tools);

async function startServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn("python3", [path.join(PROJECT_ROOT, "tests", "remote", "stand_in.py")], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("exit", () => reject(new Error("stand_in.py exited")));
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) resolve(Number(match[1]));
    });
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.pid && process.kill(child.pid, "SIGTERM") };
}

interface Timings {
  tool: number[];
  rollout: number[];
}

/** One rollout's calls over HTTP, carrying whatever cookie the answers set (NeMo Gym's agent; edgegym's gateway alike). */
async function httpRollout(base: string, headers: Record<string, string>, t: Timings): Promise<void> {
  let cookie = "";
  const post = async (route: string, body: unknown) => {
    const response = await fetch(`${base}/${route}`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
    const set = (response.headers as Headers & { getSetCookie(): string[] }).getSetCookie().map((line) => line.split(";")[0]);
    if (set.length) cookie = set.join("; ");
    const text = await response.text();
    if (!response.ok) throw new Error(`${route} answered ${response.status}: ${text.slice(0, 200)}`);
    return text;
  };
  const started = performance.now();
  await post("seed_session", row);
  for (let i = 0; i < TOOLS; i++) {
    const at = performance.now();
    await post("count", {});
    t.tool.push(performance.now() - at);
  }
  await post("verify", { ...row, response: { output: [] } });
  t.rollout.push(performance.now() - started);
}

const row = { responses_create_params: { input: "count" }, expected_count: TOOLS } as DatasetRow;

function call(name: string): ModelResponse {
  return {
    id: "r",
    object: "response",
    created_at: 0,
    model: "m",
    output: [{ type: "function_call", call_id: "c", name, arguments: "{}" }],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
  };
}
const answer: ModelResponse = {
  ...call("count"),
  output: [{ id: "m", type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "done", annotations: [] }] }],
};

function median(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}
function p95(xs: number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length * 0.95)] ?? Number.NaN;
}

async function main(): Promise<void> {
  const started = performance.now();
  const server = await startServer();
  try {
    const config = parseRemoteFile(JSON.stringify({ remotes: [{ name: "stand_in", baseUrls: [server.url] }] }), "bench")[0]!.config;
    const direct: Timings = { tool: [], rollout: [] };
    for (let i = 0; i < 10; i++) await httpRollout(server.url, {}, { tool: [], rollout: [] }); // warm-up
    for (let i = 0; i < ROLLOUTS; i++) await httpRollout(server.url, {}, direct);

    // In process: the agent's own loop over the remote EnvironmentRpc; tool time is the EnvironmentRpc call, wrapped.
    const environment = remoteEnvironment(config, { secrets: {} });
    const inProcess: Timings = { tool: [], rollout: [] };
    const timed = {
      ...environment,
      tool: async (...args: Parameters<typeof environment.tool>) => {
        const at = performance.now();
        const outcome = await environment.tool(...args);
        inProcess.tool.push(performance.now() - at);
        return outcome;
      },
    };
    for (let i = 0; i < ROLLOUTS + 10; i++) {
      let turn = 0;
      const model = { respond: async () => ({ ok: true as const, value: turn++ < TOOLS ? call("count") : answer }) };
      const started = performance.now();
      const record = await runRollout(
        row,
        { model, resources: timed, owner: { rollout: String(i), token: "bench" } },
        { maxSteps: TOOLS + 2, deadlineAt: Date.now() + 60_000, modelTimeoutMs: 10_000, toolTimeoutMs: 10_000 },
      );
      if (record.reward !== 1) throw new Error(`in-process rollout scored ${String(record.reward)}`);
      if (i < 10)
        inProcess.tool.length = 0; // warm-up
      else inProcess.rollout.push(performance.now() - started);
    }

    // workerd: the gateway's /v1/environments/stand_in/* routes, edgegym's session cookie carried as a NeMo Gym agent would.
    const local = await startLocal({ port: 0, persist: false, environments: [], remotes: [{ config, origin: "bench" }], logLevel: "silent" });
    const workerd: Timings = { tool: [], rollout: [] };
    try {
      const base = `${local.url}/v1/environments/stand_in`;
      const headers = { authorization: `Bearer ${local.token}` };
      for (let i = 0; i < 10; i++) await httpRollout(base, headers, { tool: [], rollout: [] });
      for (let i = 0; i < ROLLOUTS; i++) await httpRollout(base, headers, workerd);
    } finally {
      await local.stop();
    }

    const rows = [
      ["direct (NeMo Gym's agent)", direct],
      ["edgegym in process (AWS)", inProcess],
      ["edgegym in workerd (Cloudflare)", workerd],
    ] as const;
    const base = { tool: median(direct.tool), rollout: median(direct.rollout) };
    process.stdout.write(`remote environment overhead: ${ROLLOUTS} rollouts of ${TOOLS} tool calls each, one at a time, on the stand-in server\n`);
    process.stdout.write(
      `${"path".padEnd(34)}${"tool p50".padStart(10)}${"tool p95".padStart(10)}${"rollout p50".padStart(13)}${"+tool".padStart(9)}${"+rollout".padStart(10)}\n`,
    );
    for (const [name, t] of rows) {
      const ms = (x: number) => `${x.toFixed(2)}ms`;
      process.stdout.write(
        `${name.padEnd(34)}${ms(median(t.tool)).padStart(10)}${ms(p95(t.tool)).padStart(10)}${ms(median(t.rollout)).padStart(13)}${ms(median(t.tool) - base.tool).padStart(9)}${ms(median(t.rollout) - base.rollout).padStart(10)}\n`,
      );
    }
    const figures: Figure[] = rows.slice(1).flatMap(([name, t]) => {
      const id = name.includes("workerd") ? "workerd" : "in_process";
      return [
        { id: `remote.${id}.tool_overhead_ms`, label: `${name}: added per tool call (p50)`, value: median(t.tool) - base.tool, unit: "ms" },
        { id: `remote.${id}.rollout_overhead_ms`, label: `${name}: added per rollout (p50)`, value: median(t.rollout) - base.rollout, unit: "ms" },
      ];
    });
    figures.unshift({ id: "remote.direct.tool_p50_ms", label: "direct (NeMo Gym's agent): a tool call (p50)", value: base.tool, unit: "ms" });
    emit({
      scenario: "remote",
      title: `Remote environment overhead (${ROLLOUTS} rollouts of ${TOOLS} tool calls, stand-in server)`,
      seconds: (performance.now() - started) / 1000,
      figures,
    });
  } finally {
    server.stop();
  }
}

await main();
