// What a collection runs, as NeMo Gym's rollout collection prepares it: rows → tasks (identical lines are one task) × repeats.
import { createHash } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync } from "node:fs";
import { once } from "node:events";
import { tmpdir } from "node:os";
import path from "node:path";
import { discoverEnvironments } from "../environments.js";
import { environmentFromAgentName } from "./agent-ref.js";
import type { DatasetRow } from "../../protocol/index.js";
import type { DatasetProblem } from "./dataset.js";
import type { LoadedPromptConfig } from "./prompt-config.js";
import { MAX_LINE_BYTES } from "../../http/json.js";
import { checkRow, fileLines } from "./row-check.js";

/** NeMo Gym's num_repeats: one number, or per environment (agent names accepted) with an optional `_default`. */
export type RepeatsSpec = number | Record<string, number>;

export interface PlanOptions {
  input: string;
  /** Every row goes to this environment; otherwise each row's agent_ref names it. */
  environment?: string;
  numRepeats?: RepeatsSpec;
  /** Only the first n rows (NeMo Gym's limit). */
  limit?: number;
  promptConfig?: LoadedPromptConfig;
  /** A per-rollout `seed` in metadata.extra_body, the rollout index (NeMo Gym's num_repeats_add_seed). */
  addSeed?: boolean;
  /** Environments the gateway serves. */
  known: string[];
  /** `task:rollout` keys already collected (a resumed collection runs only the others). */
  done?: ReadonlySet<string>;
}

/** The rows to upload as one job: `numRepeats` rollouts of each line, and where each line's records belong. */
export interface Plan {
  problems: DatasetProblem[];
  /** One materialized row a line: a task (job repeats it) or, when expanded, one rollout. */
  uploadFile: string;
  numRepeats: number;
  expanded: boolean;
  /** Upload line k's task index in the input, its rollout index (expanded), its environment, its input line. */
  tasks: number[];
  rollouts: number[];
  environments: string[];
  sourceLines: number[];
  /** Rollouts this run will produce. */
  total: number;
  /** True when the job's own task and rollout indices are the input's (no remapping, the job's metrics stand). */
  identity: boolean;
  /** Per environment: the repeats asked for and the fields its rows carry besides the input (what the table leaves out). */
  inputs: Record<string, PlanInputs>;
  dispose(): void;
}

export interface PlanInputs {
  repeats: number;
  inputFields: string[];
}

/** Fields a row brings that are no result of a rollout: its own task fields, ids, the agent it names. */
function addInputFields(into: Set<string>, row: DatasetRow): void {
  for (const key of Object.keys(row)) if (key !== "responses_create_params") into.add(key);
}

export const rolloutKey = (task: number, rollout: number) => `${task}:${rollout}`;

export function repeatsFor(spec: RepeatsSpec | undefined, environment: string, known: string[]): number | undefined {
  if (spec === undefined) return 1;
  if (typeof spec === "number") return spec;
  for (const [name, n] of Object.entries(spec)) {
    if (name !== "_default" && (name === environment || environmentFromAgentName(name, known) === environment)) return n;
  }
  return spec._default;
}

/** `8` or `mcqa=8,string_match=2,_default=1` (NeMo Gym's dict form, keyed by environment or agent name). */
export function parseRepeats(value: string): RepeatsSpec {
  const whole = Number(value);
  if (/^\d+$/.test(value.trim())) {
    if (whole < 1) throw new Error("expected a positive integer");
    return whole;
  }
  const spec: Record<string, number> = {};
  for (const part of value.split(",")) {
    const [name, n] = part.split("=").map((s) => s.trim());
    if (!name || !n || !/^\d+$/.test(n) || Number(n) < 1) throw new Error(`"${part}" is not <environment>=<positive integer>`);
    spec[name] = Number(n);
  }
  return spec;
}

/** A per-rollout seed in metadata.extra_body, a JSON string as OpenAI's metadata values are (NeMo Gym's way). */
function withSeed(row: DatasetRow, seed: number): DatasetRow {
  const params = row.responses_create_params;
  const metadata = { ...(params.metadata ?? {}) };
  let extra: Record<string, unknown> = {};
  if (typeof metadata.extra_body === "string") {
    try {
      extra = JSON.parse(metadata.extra_body) as Record<string, unknown>;
    } catch {
      // A malformed extra_body is the model proxy's to refuse; the seed starts a fresh one.
    }
  }
  metadata.extra_body = JSON.stringify({ ...extra, seed });
  return { ...row, responses_create_params: { ...params, metadata } };
}

interface TaskInfo {
  task: number;
  environment: string;
  repeats: number;
  /** Input lines with this exact text (NeMo Gym gives identical lines one task, their rollouts numbered on). */
  copies: number;
}

export async function buildPlan(options: PlanOptions): Promise<Plan> {
  const problems: DatasetProblem[] = [];
  // Tasks by a digest of their line: the lines themselves are never all in memory.
  const byDigest = new Map<string, TaskInfo>();
  const dir = mkdtempSync(path.join(tmpdir(), "edgegym-plan-"));
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  // Pass 1: every accepted line's materialized row to a file, its task and input line in memory.
  const rowsFile = path.join(dir, "materialized.jsonl");
  const rows = createWriteStream(rowsFile);
  const accepted: { task: TaskInfo; line: number }[] = [];
  const inputs = new Map<string, { repeats: number; fields: Set<string> }>();
  let position = 0;
  const bundled = discoverEnvironments();
  try {
    for await (const { line, text, problem } of fileLines(options.input, { maxLineBytes: MAX_LINE_BYTES })) {
      if (options.limit !== undefined && position >= options.limit) break;
      const index = position++;
      // As `dataset validate` checks it: the protocol, then the environment's task fields and tools (where it is bundled here).
      const verdict = await checkRow(text, options.input, line, {
        lineProblem: problem,
        promptConfig: options.promptConfig,
        environment: options.environment,
        known: options.known,
        bundled,
      });
      if (!verdict.ok) {
        problems.push(...verdict.problems);
        continue;
      }
      const digest = createHash("sha1").update(text).digest("base64");
      let task = byDigest.get(digest);
      if (task) task.copies++;
      else {
        const agentName = verdict.row.agent_ref?.name;
        const environment = options.environment ?? (agentName ? environmentFromAgentName(agentName, options.known) : undefined);
        if (!environment) {
          const message = agentName ? `"${agentName}" names no environment (known: ${options.known.join(", ")})` : "no agent_ref: pass --environment";
          problems.push({ file: options.input, line, field: "agent_ref.name", message });
          continue;
        }
        const repeats = repeatsFor(options.numRepeats, environment, options.known);
        if (repeats === undefined) {
          problems.push({ file: options.input, line, field: "agent_ref.name", message: `--num-repeats names no count for ${environment} and has no _default` });
          continue;
        }
        task = { task: index, environment, repeats, copies: 1 };
        byDigest.set(digest, task);
        const facts = inputs.get(environment) ?? { repeats, fields: new Set<string>() };
        inputs.set(environment, facts);
        addInputFields(facts.fields, verdict.raw);
      }
      accepted.push({ task, line });
      if (!rows.write(`${JSON.stringify(verdict.raw)}\n`)) await once(rows, "drain");
    }
  } catch (error) {
    dispose();
    throw error;
  } finally {
    await new Promise((resolve) => rows.end(resolve));
  }
  const planInputs = Object.fromEntries([...inputs].map(([name, { repeats, fields }]) => [name, { repeats, inputFields: [...fields] }]));
  return { ...(await writeUpload(rowsFile, accepted, options, dir)), inputs: planInputs, problems, dispose };
}

/** Pass 2: the upload, one line a task (every task the same number of rollouts) or one line a rollout. */
async function writeUpload(
  rowsFile: string,
  accepted: { task: TaskInfo; line: number }[],
  options: PlanOptions,
  dir: string,
): Promise<Omit<Plan, "problems" | "dispose" | "inputs">> {
  const counts = new Set([...new Set(accepted.map((a) => a.task))].map((t) => t.copies * t.repeats));
  const uniform = counts.size <= 1 ? ([...counts][0] ?? 1) : undefined;
  const done = options.done ?? new Set<string>();
  const expanded = uniform === undefined || done.size > 0 || (options.addSeed === true && uniform > 1);
  const uploadFile = path.join(dir, "upload.jsonl");
  const out = createWriteStream(uploadFile);
  const plan = { uploadFile, numRepeats: expanded ? 1 : (uniform ?? 1), expanded, tasks: [] as number[], rollouts: [] as number[] };
  const environments: string[] = [];
  const sourceLines: number[] = [];
  let total = 0;
  const next = new Map<TaskInfo, number>();
  const emit = async (row: DatasetRow, task: TaskInfo, rollout: number, line: number) => {
    plan.tasks.push(task.task);
    plan.rollouts.push(rollout);
    environments.push(task.environment);
    sourceLines.push(line);
    if (!out.write(`${JSON.stringify(row)}\n`)) await once(out, "drain");
  };
  try {
    let i = 0;
    for await (const { text } of fileLines(rowsFile)) {
      const { task, line } = accepted[i++]!;
      if (!expanded) {
        // One line a task: the job repeats it; an identical line adds rollouts, not a line.
        if (next.has(task)) continue;
        next.set(task, 0);
        const row = JSON.parse(text) as DatasetRow;
        await emit(options.addSeed ? withSeed(row, 0) : row, task, 0, line);
        total += plan.numRepeats;
        continue;
      }
      const first = next.get(task) ?? 0;
      next.set(task, first + task.repeats);
      const row = JSON.parse(text) as DatasetRow;
      for (let rollout = first; rollout < first + task.repeats; rollout++) {
        if (done.has(rolloutKey(task.task, rollout))) continue;
        await emit(options.addSeed ? withSeed(row, rollout) : row, task, rollout, line);
        total++;
      }
    }
  } finally {
    await new Promise((resolve) => out.end(resolve));
  }
  const identity = !expanded && plan.tasks.every((task, k) => task === k);
  return { ...plan, environments, sourceLines, total, identity };
}
