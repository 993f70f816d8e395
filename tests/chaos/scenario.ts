// The chaos scenario: a job through the local emulation while every part misbehaves (the model: 10% HTTP 500/503, 5%
// hangs past its timeout, 2% dropped connections, 1% cut-short bodies, 5% latency spikes; the environment's seed, tool and
// verifier failing or hanging at random; 5% of bucket writes and queue sends failing), then every invariant checked.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { FAILURE_CLASSES } from "../../contracts/failures.js";
import { rolloutId } from "../../contracts/messages.js";
import type { Local } from "../../local/emulation.js";
import { createJob, jobLines, waitForJob } from "../helpers/jobs.js";
import { startTestLocal } from "../helpers/local.js";
import { chaosEnvironment, chaosRow } from "./setup.js";

export const MODEL_FAULTS = {
  errorRate: 0.1,
  errorStatus: [500, 503],
  hangRate: 0.05,
  hangMs: 120_000,
  dropRate: 0.02,
  malformedRate: 0.01,
  spikeRate: 0.05,
  spikeMs: 400,
};
export const ENVIRONMENT_FAULTS = { seed_error: 0.03, tool_error: 0.1, tool_hang: 0.03, hang_ms: 120_000, verify_error: 0.03, judge_error: 0.02 };
export const PLUMBING_FAULTS = { CHAOS_STORE_WRITE_FAILURE_RATE: "0.05", CHAOS_QUEUE_SEND_FAILURE_RATE: "0.05" };

export interface ChaosReport {
  rollouts: number;
  seconds: number;
  done: number;
  failed: number;
  failedByClass: Record<string, number>;
  /** Faults the simulator injected, by kind. */
  modelFaults: Record<"error" | "drop" | "malformed" | "hang" | "spike", number>;
  /** What is wrong (empty when every invariant holds). */
  problems: string[];
}

/** The emulation under chaos, its state in a temporary folder (removed by `stop`), as the local emulation keeps it on disk. */
export async function startChaosLocal(): Promise<Local> {
  const dir = mkdtempSync(path.join(tmpdir(), "edgegym-chaos-"));
  const local = await startTestLocal({
    persist: dir,
    environments: [],
    extraEnvironments: [chaosEnvironment],
    simulator: { latencyMs: { min: 2, max: 20 }, faults: MODEL_FAULTS, seed: 7 },
    vars: {
      agent: {
        MODEL_TIMEOUT_MS: "4000",
        TOOL_TIMEOUT_MS: "1000",
        ROLLOUT_TIMEOUT_MS: "30000",
        RETRY_BASE_SECONDS: "0.2",
        MAX_ATTEMPTS: "3",
        BATCH_CONCURRENCY: "64",
        ...PLUMBING_FAULTS,
      },
      modelProxy: { MODEL_TIMEOUT_MS: "1000", MODEL_MAX_ATTEMPTS: "3", MODEL_RETRY_BASE_MS: "20", MODEL_RETRY_MAX_MS: "200", MODEL_UNHEALTHY_MS: "0" },
      writer: { CHAOS_STORE_WRITE_FAILURE_RATE: PLUMBING_FAULTS.CHAOS_STORE_WRITE_FAILURE_RATE, RETRY_BASE_SECONDS: "0.2", STALL_SECONDS: "60" },
    },
  });
  return {
    ...local,
    async stop() {
      await local.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * What is wrong with a failure's NeMo Gym fields (`_ng_failure_class` in NeMo Gym's names, `_ng_failure_terminal`), given
 * its class, or null: a judge failure is `judge_failed`, a timeout `timeout_exceeded` and terminal, anything else
 * `transient` (retried on resume) or `legitimate` (the row's fault, terminal).
 */
function nemoGymProblem(name: string, nemoGymClass: unknown, terminal: unknown): string | null {
  const expected = name === "judge_failed" ? ["judge_failed"] : name.endsWith("_timeout") ? ["timeout_exceeded"] : ["transient", "legitimate"];
  if (!expected.includes(String(nemoGymClass))) return `_ng_failure_class ${String(nemoGymClass)}, expected ${expected.join(" or ")}`;
  const terminalExpected = nemoGymClass === "timeout_exceeded" || nemoGymClass === "legitimate";
  if ((terminal === true) !== terminalExpected) return `_ng_failure_terminal ${String(terminal)} for ${String(nemoGymClass)}`;
  return null;
}

/** Runs one job of rows × repeats under chaos and checks: one record per rollout, none twice, every failure classified and counted. */
export async function runChaos(local: Local, rows: number, repeats: number, timeoutMs: number): Promise<ChaosReport> {
  const started = Date.now();
  const jsonl = Array.from({ length: rows }, (_, i) => JSON.stringify(chaosRow(ENVIRONMENT_FAULTS, `work on ${i}`))).join("\n");
  const created = await createJob(local.url, jsonl, { environment: chaosEnvironment.name, num_repeats: String(repeats) });
  if (created.status !== 201) throw new Error(`the chaos job was refused: ${JSON.stringify(created.body)}`);
  const info = await waitForJob(local.url, created.body.id, timeoutMs);
  const seconds = (Date.now() - started) / 1000;
  const rollouts = await jobLines(local.url, info.id, "rollouts");
  const failures = await jobLines(local.url, info.id, "failures");
  const total = rows * repeats;
  const problems: string[] = [];
  if (info.status !== "completed") problems.push(`the job ended ${info.status}`);
  if (rollouts.length + failures.length !== total) problems.push(`${rollouts.length} rollouts + ${failures.length} failures ≠ ${total}`);
  const ids = [...rollouts, ...failures].map((r) => String(r._ng_rollout_id));
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) problems.push(`rollout ${id} is recorded twice`);
    seen.add(id);
  }
  for (let task = 0; task < rows; task++) {
    for (let repeat = 0; repeat < repeats; repeat++) if (!seen.has(rolloutId(info.id, task, repeat))) problems.push(`rollout ${task}:${repeat} has no record`);
  }
  const byClass: Record<string, number> = {};
  for (const failure of failures) {
    const name = String(failure.failure_class);
    if (!(FAILURE_CLASSES as readonly string[]).includes(name)) problems.push(`failure ${failure._ng_rollout_id} has no known class: ${name}`);
    const nemoGym = nemoGymProblem(name, failure._ng_failure_class, failure._ng_failure_terminal);
    if (nemoGym) problems.push(`failure ${failure._ng_rollout_id} (${name}): ${nemoGym}`);
    byClass[name] = (byClass[name] ?? 0) + 1;
  }
  if (info.counts.done !== rollouts.length || info.counts.failed !== failures.length) {
    problems.push(`the status counts ${info.counts.done} done, ${info.counts.failed} failed; the results hold ${rollouts.length} and ${failures.length}`);
  }
  for (const name of FAILURE_CLASSES) {
    if ((info.counts.failed_by_class[name] ?? 0) !== (byClass[name] ?? 0)) {
      problems.push(`the status counts ${info.counts.failed_by_class[name]} ${name}; the failures hold ${byClass[name] ?? 0}`);
    }
  }
  return {
    rollouts: total,
    seconds,
    done: rollouts.length,
    failed: failures.length,
    failedByClass: byClass,
    modelFaults: { ...local.simulator!.injected },
    problems: problems.slice(0, 50),
  };
}
