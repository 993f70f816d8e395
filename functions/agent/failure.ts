// Why a rollout failed, as a detailed code (contracts/failures.ts maps each to the class a record and the job count carry)
// and a message a person can act on.
import { EdgegymError, type ErrorStatus } from "../../protocol/index.js";

export type FailureClass =
  | "invalid_row"
  | "unknown_environment"
  | "seed_failed"
  | "reset_failed"
  | "step_failed"
  | "environment_error"
  | "model_error"
  | "model_invalid_response"
  | "verify_failed"
  | "model_timeout"
  | "tool_timeout";

const STATUS: Record<FailureClass, ErrorStatus> = {
  invalid_row: 400,
  unknown_environment: 404,
  seed_failed: 502,
  reset_failed: 502,
  step_failed: 502,
  environment_error: 502,
  model_error: 502,
  model_invalid_response: 502,
  verify_failed: 502,
  model_timeout: 504,
  tool_timeout: 504,
};

export class RolloutFailure extends EdgegymError {
  constructor(
    readonly failureClass: FailureClass,
    message: string,
    /** The status of the call that failed, when it was an upstream's answer. */
    readonly upstreamStatus?: number,
  ) {
    // A 4xx from the model or environment is the row's fault, not an outage: pass it on as such.
    const status = upstreamStatus !== undefined && upstreamStatus >= 400 && upstreamStatus < 500 ? 400 : STATUS[failureClass];
    super(status, failureClass, message);
    this.name = "RolloutFailure";
  }
}
