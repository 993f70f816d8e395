// How long any call between parts may take: none waits unbounded. (Model, tool and judge calls have their own, per
// rollout, in each Worker's variables; these bound the plumbing: the bucket, the queues, the Job objects.)

export const TIMEOUTS = {
  /** One bucket operation (a put, a get and its body read, a list page, a delete). */
  storageMs: 30_000,
  /** A put whose body streams from a caller (an upload, up to MAX_UPLOAD_BYTES): it takes as long as their upload does. */
  streamedPutMs: 900_000,
  /** One queue send or batch send. */
  queueMs: 15_000,
  /** One call to a Job object (started, record, info, resume…): they touch SQLite and, for record, the bucket. */
  jobRpcMs: 60_000,
  /** An environment's aggregateMetrics over a whole job's summaries (at completion, in the Job's alarm). */
  metricsMs: 300_000,
  /** Telling the rollout runners of a cancel (they drop the job's waiting rollouts). */
  cancelDropMs: 10_000,
  /** Describing an environment for the gateway's list. */
  describeMs: 10_000,
} as const;
