// NeMo Gym's bookkeeping conventions a drop-in must keep: rollout ids, failure fields, reward components.

/** NeMo Gym's resume counter on a retried row (nemo_gym/global_config.py). */
export const ATTEMPT_INDEX = "_ng_attempt_index";

/** A rollout id is a URL path segment and a file name upstream: letters, digits, `.`, `_`, `-`, not starting with a symbol. */
export const ROLLOUT_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * The id NeMo Gym derives for a row (nemo_gym/rollout_correlation.py): its explicit `_ng_rollout_id`, else
 * `<task>-<rollout>`, with `-a<n>` for a resumed attempt n > 0; undefined when the row has neither.
 */
export function nemoGymRolloutId(row: Record<string, unknown>): string | undefined {
  const explicit = row["_ng_rollout_id"];
  const task = row["_ng_task_index"];
  const rollout = row["_ng_rollout_index"];
  let id: string | undefined;
  if (typeof explicit === "string") id = explicit;
  else if (typeof task === "number" && typeof rollout === "number") id = `${task}-${rollout}`;
  if (id === undefined) return undefined;
  const attempt = row[ATTEMPT_INDEX];
  return typeof attempt === "number" && attempt > 0 ? `${id}-a${Math.trunc(attempt)}` : id;
}

// The fields NeMo Gym's rollout collection reads to route a result (nemo_gym/rollout_collection.py).
export const NG_FAILURE_CLASS = "_ng_failure_class";
/** true: never retried on resume. */
export const NG_FAILURE_TERMINAL = "_ng_failure_terminal";
/** true: written nowhere, re-dispatched on resume. */
export const NG_NO_PERSIST = "_ng_no_persist";

/** The failure classes NeMo Gym's agents set (stirrup_agent's taxonomy plus the judge's). */
export type NemoGymFailureClass = "kill_shaped" | "timeout_exceeded" | "skipped" | "transient" | "legitimate" | "judge_failed";

/**
 * An edgegym failure (its HTTP status and code) as NeMo Gym's class: a timeout (504, 408, or a `…_timeout` code such as
 * `model_timeout`) is `timeout_exceeded` and terminal, as upstream's agents mark it; a 4xx is the row's own fault, the
 * same on every retry (`legitimate`, terminal); anything else may pass (`transient`: retried on resume).
 */
export function nemoGymFailure(status: number, code: string): { failureClass: NemoGymFailureClass; terminal: boolean } {
  if (status === 504 || status === 408 || code === "timeout" || code.endsWith("_timeout")) return { failureClass: "timeout_exceeded", terminal: true };
  if (status >= 400 && status < 500) return { failureClass: "legitimate", terminal: true };
  return { failureClass: "transient", terminal: false };
}

/**
 * Why a verify answer's `reward_components` do not make its `reward`, or undefined when they do (or there are none).
 * NeMo RL refuses a result whose reward is not the components' sum (math.isclose, rel 1e-5, abs 1e-6).
 */
export function rewardComponentsProblem(fields: Record<string, unknown>): string | undefined {
  const components = fields["reward_components"];
  if (components === undefined || components === null) return undefined;
  if (typeof components !== "object" || Array.isArray(components)) return "reward_components is not an object of numbers";
  const values = Object.entries(components as Record<string, unknown>);
  if (values.length === 0) return undefined;
  let sum = 0;
  for (const [name, value] of values) {
    if (typeof value !== "number" || !Number.isFinite(value)) return `reward_components.${name} is not a number`;
    sum += value;
  }
  const reward = Number(fields["reward"]);
  const close = Math.abs(reward - sum) <= Math.max(1e-5 * Math.max(Math.abs(reward), Math.abs(sum)), 1e-6);
  return close ? undefined : `reward is ${reward} but reward_components sum to ${sum}`;
}
