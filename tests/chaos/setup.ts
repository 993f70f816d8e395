// What tests need to use the chaos environment without importing its Worker code: its name, its entry, its rows.
import path from "node:path";
import { PROJECT_ROOT } from "../../local/paths.js";

export { CHAOS_ENVIRONMENT } from "./name.js";
import { CHAOS_ENVIRONMENT } from "./name.js";

/** For startLocal's extraEnvironments. */
export const chaosEnvironment = { name: CHAOS_ENVIRONMENT, entry: path.relative(PROJECT_ROOT, path.join(import.meta.dirname, "environment.ts")) };

/** The rates tests/chaos/environment.ts reads from a row. */
export interface ChaosRates {
  seed_error?: number;
  tool_error?: number;
  tool_hang?: number;
  verify_error?: number;
  judge_error?: number;
  hang_ms?: number;
}

/** A row whose model is offered the `work` tool (the simulator calls it once, then answers). */
export function chaosRow(chaos: ChaosRates, input = "work on 7"): Record<string, unknown> {
  const work = { type: "function", name: "work", parameters: { type: "object", properties: { n: { type: "number" } }, required: ["n"] } };
  return { responses_create_params: { input, tools: [work] }, chaos };
}
