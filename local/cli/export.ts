// `edgegym export`: scored rollouts → offline training data. SFT keeps good rollouts as chat transcripts; DPO pairs better and worse ones.
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { environmentFromAgentName } from "./agent-ref.js";
import { RecordedRollout, ROLLOUT_INDEX, TASK_INDEX } from "../../protocol/index.js";
import { discoverEnvironments } from "../environments.js";
import { type ChatOptions, chatTools, itemsToMessages, promptMessages } from "./chat-format.js";
import { fileLines } from "./row-check.js";

export interface ExportOptions extends ChatOptions {
  input: string;
  output: string;
  format: "sft" | "dpo";
  /** SFT: keep rollouts whose reward is at least this. */
  minReward: number;
  /** SFT: at most this many rollouts of one task (the best first). */
  maxPerTask?: number;
  /** DPO: `best-worst` (one pair a task) or `all` (every higher/lower pair). */
  pairing: "best-worst" | "all";
  /** DPO: the chosen reward must beat the rejected one by at least this (and by more than 0). */
  minMargin: number;
  /** Add a `metadata` field (environment, task, rollout, reward) to each record. */
  metadata?: boolean;
}

export interface ExportSummary {
  format: "sft" | "dpo";
  read: number;
  /** Lines that are not a scored rollout (no reward or response), and failure records (judge_failed…). */
  skipped: { not_a_rollout: number; failed: number };
  written: number;
  sft?: { below_min_reward: number; over_max_per_task: number };
  dpo?: { tasks: number; single_rollout: number; no_reward_spread: number; below_margin: number };
  environments: Record<string, { read: number; written: number }>;
}

interface Scored {
  environment: string;
  task: string;
  taskIndex?: number;
  rollout: number;
  reward: number;
  record: RecordedRollout;
}

async function readScored(input: string, summary: ExportSummary): Promise<Scored[]> {
  const known = discoverEnvironments();
  const scored: Scored[] = [];
  for await (const { text } of fileLines(input)) {
    summary.read++;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      summary.skipped.not_a_rollout++;
      continue;
    }
    const raw = value as Record<string, unknown>;
    if (typeof raw._ng_failure_class === "string" || typeof raw.failure_class === "string") {
      summary.skipped.failed++;
      continue;
    }
    const parsed = RecordedRollout.safeParse(value);
    if (!parsed.success) {
      summary.skipped.not_a_rollout++;
      continue;
    }
    const record = parsed.data;
    const agent = record.agent_ref?.name;
    const environment = (agent && (environmentFromAgentName(agent, known) ?? agent)) || "unknown";
    const taskIndex = record[TASK_INDEX];
    // Without a task index, rollouts of the same prompt are one task.
    const task =
      taskIndex !== undefined
        ? `${environment}#${taskIndex}`
        : `${environment}#${JSON.stringify([record.responses_create_params.instructions, record.responses_create_params.input])}`;
    scored.push({ environment, task, taskIndex, rollout: record[ROLLOUT_INDEX] ?? 0, reward: record.reward, record });
    summary.environments[environment] ??= { read: 0, written: 0 };
    summary.environments[environment].read++;
  }
  return scored;
}

const metadataOf = (s: Scored) => ({ environment: s.environment, task_index: s.taskIndex ?? null, rollout_index: s.rollout, reward: s.reward });

function sftRecord(s: Scored, options: ExportOptions): Record<string, unknown> {
  const params = s.record.responses_create_params;
  const tools = chatTools(params);
  return {
    messages: [...promptMessages(params, options), ...itemsToMessages(s.record.response.output, options)],
    ...(tools.length ? { tools } : {}),
    ...(options.metadata ? { metadata: metadataOf(s) } : {}),
  };
}

function dpoRecord(chosen: Scored, rejected: Scored, options: ExportOptions): Record<string, unknown> {
  const params = chosen.record.responses_create_params;
  const tools = chatTools(params);
  return {
    prompt: promptMessages(params, options),
    chosen: itemsToMessages(chosen.record.response.output, options),
    rejected: itemsToMessages(rejected.record.response.output, options),
    ...(tools.length ? { tools } : {}),
    ...(options.metadata
      ? { metadata: { environment: chosen.environment, task_index: chosen.taskIndex ?? null, chosen: metadataOf(chosen), rejected: metadataOf(rejected) } }
      : {}),
  };
}

function groups(scored: Scored[]): Scored[][] {
  const byTask = new Map<string, Scored[]>();
  for (const s of scored) {
    const group = byTask.get(s.task);
    if (group) group.push(s);
    else byTask.set(s.task, [s]);
  }
  return [...byTask.values()];
}

/** Best reward first; among equals, the lower rollout index. */
const better = (a: Scored, b: Scored) => b.reward - a.reward || a.rollout - b.rollout;

function* sftRecords(scored: Scored[], options: ExportOptions, summary: ExportSummary): Generator<[Scored, Record<string, unknown>]> {
  const stats = { below_min_reward: 0, over_max_per_task: 0 };
  summary.sft = stats;
  for (const group of groups(scored)) {
    const kept = group.filter((s) => s.reward >= options.minReward);
    stats.below_min_reward += group.length - kept.length;
    const ranked = options.maxPerTask !== undefined ? [...kept].sort(better).slice(0, options.maxPerTask) : kept;
    stats.over_max_per_task += kept.length - ranked.length;
    for (const s of [...ranked].sort((a, b) => a.rollout - b.rollout)) yield [s, sftRecord(s, options)];
  }
}

function* dpoRecords(scored: Scored[], options: ExportOptions, summary: ExportSummary): Generator<[Scored, Record<string, unknown>]> {
  const stats = { tasks: 0, single_rollout: 0, no_reward_spread: 0, below_margin: 0 };
  summary.dpo = stats;
  const pairs = (a: Scored, b: Scored) => a.reward > b.reward && a.reward - b.reward >= options.minMargin;
  for (const group of groups(scored)) {
    stats.tasks++;
    if (group.length < 2) {
      stats.single_rollout++;
      continue;
    }
    const ranked = [...group].sort(better);
    const best = ranked[0]!;
    const worst = [...group].sort((a, b) => a.reward - b.reward || a.rollout - b.rollout)[0]!;
    if (best.reward === worst.reward) {
      stats.no_reward_spread++;
      continue;
    }
    const chosen: [Scored, Scored][] =
      options.pairing === "best-worst" ? [[best, worst]] : ranked.flatMap((a, i) => ranked.slice(i + 1).map((b): [Scored, Scored] => [a, b]));
    const kept = chosen.filter(([a, b]) => pairs(a, b));
    if (kept.length === 0) stats.below_margin++;
    for (const [a, b] of kept) yield [a, dpoRecord(a, b, options)];
  }
}

export async function exportRollouts(options: ExportOptions): Promise<ExportSummary> {
  const summary: ExportSummary = { format: options.format, read: 0, skipped: { not_a_rollout: 0, failed: 0 }, written: 0, environments: {} };
  const scored = await readScored(options.input, summary);
  const out = createWriteStream(options.output);
  try {
    const records = options.format === "sft" ? sftRecords(scored, options, summary) : dpoRecords(scored, options, summary);
    for (const [source, record] of records) {
      summary.written++;
      summary.environments[source.environment]!.written++;
      if (!out.write(`${JSON.stringify(record)}\n`)) await once(out, "drain");
    }
  } finally {
    await new Promise((resolve) => out.end(resolve));
  }
  return summary;
}
