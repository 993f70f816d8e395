// Where a batch's rollouts run: one interface, two schedulers. In the queue batch itself (functions/agent/in-batch.ts: the
// AWS path, and RUNNER_SHARDS=0), or handed to the rollout runners, Durable Objects that run many batches' rollouts side by
// side (functions/agent/hand-off.ts, functions/agent/runner.ts).
import type { RolloutMessage } from "../../contracts/messages.js";
import type { ModelChoice } from "../../contracts/rpc.js";
import type { ReceivedMessage } from "../../queues/queue.js";

/** A rollout delivered as a queue message, with its job's model choice. */
export interface QueuedRollout {
  message: ReceivedMessage;
  body: RolloutMessage;
  model?: ModelChoice;
}

/** One batch's scheduler (it holds the batch's concurrency): the consumer expands, then schedules. */
export interface Scheduler {
  /** Rollouts delivered as queue messages: resolves once each message is acked (run, or taken over) or retried; never throws. */
  run(work: QueuedRollout[]): Promise<void>;
  /**
   * The rollouts of one expand message, which have no message of their own yet: `expand` is called once the scheduler has
   * room for them (memory holds the chunks being taken, not a batch's). Resolves once every rollout is taken over (the
   * expand message may then be acked); throws if some were not (the expand message is retried: expanding again is safe).
   */
  take(jobId: string, model: ModelChoice | undefined, expand: () => Promise<RolloutMessage[]>): Promise<void>;
}
