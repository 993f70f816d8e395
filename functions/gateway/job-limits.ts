// Caps on a job's size (config: MAX_NUM_REPEATS, MAX_JOB_ROWS, MAX_JOB_ROLLOUTS), each refused with a 400 naming the field.
import type { GatewayConfig } from "../../contracts/config.js";
import { EdgegymError } from "../../protocol/index.js";

function tooLarge(field: string, message: string): EdgegymError {
  return new EdgegymError(400, "job_too_large", message, [{ path: [field], message }]);
}

/** num_repeats over the cap is refused before a row is read. */
export function checkRepeats(numRepeats: number, config: GatewayConfig): void {
  if (numRepeats > config.MAX_NUM_REPEATS) throw tooLarge("num_repeats", `num_repeats is ${numRepeats}; at most ${config.MAX_NUM_REPEATS} (MAX_NUM_REPEATS)`);
}

/** The error for a job that would have `rows` rows, if that is over a cap. */
export function rowsOverCap(rows: number, numRepeats: number, config: GatewayConfig): EdgegymError | undefined {
  if (rows > config.MAX_JOB_ROWS) return tooLarge("rows", `the job has more than ${config.MAX_JOB_ROWS} rows (MAX_JOB_ROWS)`);
  if (rows * numRepeats > config.MAX_JOB_ROLLOUTS) {
    return tooLarge("rows", `rows × num_repeats is over ${config.MAX_JOB_ROLLOUTS} rollouts (MAX_JOB_ROLLOUTS)`);
  }
  return undefined;
}
