// `edgegym reverify`: re-score recorded rollouts with the current environment code, in this process, and say where the reward changed.
import { createWriteStream, type WriteStream } from "node:fs";
import { once } from "node:events";
import { environmentFromAgentName } from "./agent-ref.js";
import { ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { discoverEnvironments } from "../environments.js";
import { loadEnvironment, verifyInProcess } from "./environment-runner.js";
import { remoteVerifiers } from "./reverify-remote.js";
import { fileLines } from "./row-check.js";

export interface ReverifyOptions {
  input: string;
  /** Every record is for this environment; otherwise each record's agent_ref names it. */
  environment?: string;
  /** The dataset the rollouts came from: task fields a record lacks are taken from its row (matched by input). */
  dataset?: string;
  /** Where to write each re-verified record (the verify response, with `previous_reward`). */
  output?: string;
  /** The remote environments' file (default: EDGEGYM_REMOTE_CONFIG, else ./edgegym.remote.json if present). */
  remoteConfig?: string;
}

export interface RewardChange {
  line: number;
  environment: string;
  task?: number;
  rollout?: number;
  before: number;
  after: number;
}

export interface ReverifyReport {
  read: number;
  unchanged: number;
  changed: RewardChange[];
  /** Why records were not re-verified, with their count. */
  skipped: Record<string, number>;
  errors: { line: number; message: string }[];
}

type Json = Record<string, unknown>;

/** The user-visible input of a row or record, to find a record's dataset row (key order and item ids do not matter). */
export function inputKey(row: Json): string {
  const params = (row.responses_create_params ?? {}) as { input?: unknown };
  const items = typeof params.input === "string" ? [{ role: "user", content: params.input }] : Array.isArray(params.input) ? params.input : [];
  const canonical = (value: unknown): string => {
    if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
    if (value && typeof value === "object") {
      const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
    }
    return JSON.stringify(value ?? null);
  };
  return canonical((items as Json[]).map((item) => [item.role ?? null, item.content ?? null]));
}

async function datasetRows(file: string | undefined): Promise<Map<string, Json>> {
  const rows = new Map<string, Json>();
  if (!file) return rows;
  for await (const { text } of fileLines(file)) {
    const row = JSON.parse(text) as Json;
    rows.set(inputKey(row), row);
  }
  return rows;
}

/** Reasons a record cannot be re-verified here, said once per environment. */
function skipReason(environment: string, loaded: { gymnasium: boolean; stateful: boolean }): string | undefined {
  if (loaded.gymnasium) return `${environment}: a gymnasium environment scores each step() of the episode, which needs its session`;
  if (loaded.stateful) return `${environment}: stateful, its verify reads session state that the rollout's tool calls built`;
  return undefined;
}

async function write(out: WriteStream | undefined, record: Json): Promise<void> {
  if (out && !out.write(`${JSON.stringify(record)}\n`)) await once(out, "drain");
}

export async function reverify(options: ReverifyOptions): Promise<ReverifyReport> {
  const native = discoverEnvironments();
  const remotes = remoteVerifiers(options.remoteConfig, native);
  const known = [...native, ...remotes.keys()];
  if (options.environment && !known.includes(options.environment)) throw new Error(`no environment "${options.environment}" (known: ${known.join(", ")})`);
  const rows = await datasetRows(options.dataset);
  const report: ReverifyReport = { read: 0, unchanged: 0, changed: [], skipped: {}, errors: [] };
  const skip = (reason: string) => {
    report.skipped[reason] = (report.skipped[reason] ?? 0) + 1;
  };
  const out = options.output ? createWriteStream(options.output) : undefined;
  const compare = async (line: number, environment: string, record: Json, before: number, verified: Json) => {
    const after = Number(verified.reward);
    await write(out, { ...verified, previous_reward: before });
    if (Math.abs(after - before) > 1e-9) {
      const task = record[TASK_INDEX];
      const rollout = record[ROLLOUT_INDEX];
      report.changed.push({
        line,
        environment,
        before,
        after,
        ...(typeof task === "number" ? { task } : {}),
        ...(typeof rollout === "number" ? { rollout } : {}),
      });
    } else report.unchanged++;
  };
  try {
    for await (const { line, text } of fileLines(options.input)) {
      report.read++;
      let record: Json;
      try {
        record = JSON.parse(text) as Json;
      } catch {
        report.errors.push({ line, message: "not valid JSON" });
        continue;
      }
      if (typeof record._ng_failure_class === "string" || typeof record.failure_class === "string") {
        skip("a failure record: there is no reward to compare");
        continue;
      }
      if (typeof record.reward !== "number" || !record.response) {
        report.errors.push({ line, message: "not a scored rollout (no reward or response)" });
        continue;
      }
      const agent = (record.agent_ref as { name?: string } | undefined)?.name;
      const environment = options.environment ?? (agent ? environmentFromAgentName(agent, known) : undefined);
      if (!environment) {
        report.errors.push({
          line,
          message: agent ? `agent_ref "${agent}" names no bundled environment: pass --environment` : "no agent_ref: pass --environment",
        });
        continue;
      }
      const { reward: before, reward_components: _components, ...rest } = record;
      const row = rows.get(inputKey(record));
      const body = row ? { ...Object.fromEntries(Object.entries(row).filter(([key]) => !(key in rest))), ...rest } : rest;
      const remote = remotes.get(environment);
      if (remote) {
        const verdict = await remote(body);
        if (verdict.kind === "skip") skip(verdict.reason);
        else if (verdict.kind === "error") report.errors.push({ line, message: verdict.message });
        else await compare(line, environment, record, before as number, verdict.body);
        continue;
      }
      const loaded = await loadEnvironment(environment);
      const reason = skipReason(environment, loaded);
      if (reason) {
        skip(reason);
        continue;
      }
      const verdict = await verifyInProcess(loaded, body);
      if (verdict.kind === "needs_judge") {
        skip(`${environment}: this verify asks the LLM judge, and re-verification calls no model`);
        continue;
      }
      if (verdict.kind === "error") {
        report.errors.push({ line, message: `${environment} verify answered ${verdict.status}: ${verdict.message}` });
        continue;
      }
      await compare(line, environment, record, before as number, verdict.body);
    }
  } finally {
    if (out) await new Promise((resolve) => out.end(resolve));
  }
  return report;
}

export function describeReverify(input: string, report: ReverifyReport): string[] {
  const lines = report.changed.map(
    (c) =>
      `${input}:${c.line}: reward ${c.before} -> ${c.after} (${c.environment}${c.task !== undefined ? `, task ${c.task}` : ""}${c.rollout !== undefined ? `, rollout ${c.rollout}` : ""})`,
  );
  for (const e of report.errors) lines.push(`${input}:${e.line}: ${e.message}`);
  for (const [reason, n] of Object.entries(report.skipped)) lines.push(`skipped ${n}: ${reason}`);
  const verified = report.unchanged + report.changed.length;
  lines.push(
    `${report.read} read: ${verified} re-verified (${report.unchanged} unchanged, ${report.changed.length} changed), ${report.read - verified - report.errors.length} skipped, ${report.errors.length} error(s)`,
  );
  return lines;
}
