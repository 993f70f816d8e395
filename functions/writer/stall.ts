// A running job's stall watch, kept by the Job object's alarm: when nothing is recorded for the stall time, re-enqueue what
// is missing (a bounded number of times), then write what is still missing as dead_letter failures so the job completes.
import type { WriterConfig } from "../../contracts/config.js";
import type { JobStall, StallRecord } from "../../contracts/jobs.js";

export interface StallState {
  /** Last time the job moved: a result recorded, the job started, resumed or healed (epoch ms). */
  progress_at?: number;
  heals?: number;
  stalls?: StallRecord[];
}

/** Remembers a stall (the latest 10 are kept). */
export function noteStall(state: StallState, stall: StallRecord): void {
  state.stalls = [...(state.stalls ?? []), stall].slice(-10);
}

export function stallMs(config: WriterConfig): number {
  return Math.round(config.STALL_SECONDS * 1000);
}

/** When the job last moved (a job written before this was kept: its creation). */
export function lastProgress(state: StallState, createdAt: number): number {
  return state.progress_at ?? createdAt;
}

/** The stall the status reports, or undefined while the job moves. */
export function stallOf(state: StallState, createdAt: number, config: WriterConfig, now = Date.now()): JobStall | undefined {
  const since = lastProgress(state, createdAt);
  if (now - since < stallMs(config)) return undefined;
  return { since, heals: state.heals ?? 0, max_heals: config.MAX_HEALS };
}

/** What the alarm does for a running, incomplete job: wait (until when), heal, or give up on what is missing. */
export type StallStep = { kind: "wait"; until: number } | { kind: "heal" } | { kind: "give_up" };

export function stallStep(state: StallState, createdAt: number, config: WriterConfig, now = Date.now()): StallStep {
  const due = lastProgress(state, createdAt) + stallMs(config);
  if (now < due) return { kind: "wait", until: due };
  return (state.heals ?? 0) < config.MAX_HEALS ? { kind: "heal" } : { kind: "give_up" };
}
