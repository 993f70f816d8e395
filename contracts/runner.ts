// The rollout runner (a Durable Object hosted by the agent): rollouts handed over by the queue consumer run there, as many
// at once as the model's latency calls for, instead of one queue batch at a time.
import type { RolloutMessage } from "./messages.js";
export { RUNNER_CLASS } from "./names.js";
import type { ModelChoice, ObjectNamespace } from "./rpc.js";

/** One rollout handed over: its message, the deliveries it has had, and its job's model choice. */
export interface RunnerItem {
  message: RolloutMessage;
  /** Runs so far (the first is 1). */
  attempts: number;
  model?: ModelChoice;
}

export interface RunnerStats {
  /** Rollouts running now, and the most at once. */
  running: number;
  peakRunning: number;
  /** Accepted and not yet started (waiting for room in the window, or for a retry's delay). */
  waiting: number;
  /** How many may run at once now (the window). */
  limit: number;
  finished: number;
}

export interface RunnerRpc {
  /**
   * Takes the items over: they are stored before this answers, so the caller may ack their queue messages; answers once
   * the runner has room, which holds the queue's backlog in the queue rather than in memory.
   */
  accept(items: RunnerItem[]): Promise<{ accepted: number }>;
  /** A cancelled job: its rollouts not yet started are dropped at once (those running finish), and none starts until it is handed over again. */
  drop(jobId: string): Promise<{ dropped: number }>;
  stats(): Promise<RunnerStats>;
}

export type RunnerNamespace = ObjectNamespace<RunnerRpc>;

/** Which runner shard a rollout goes to: spread by task and repeat, so one job uses every shard. */
export function runnerShard(message: Pick<RolloutMessage, "task_index" | "rollout_index">, shards: number): number {
  return (message.task_index * 31 + message.rollout_index) % Math.max(1, shards);
}
