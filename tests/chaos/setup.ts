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

/**
 * A row whose model is offered the `work` tool (the simulator calls it once, then answers). The tool's rates are
 * defaults of its required arguments, which the simulator fills in; the others are the row's `chaos` task field.
 */
export function chaosRow(rates: ChaosRates, input = "work on 7"): Record<string, unknown> {
  const { tool_error = 0, tool_hang = 0, hang_ms = 60_000, ...chaos } = rates;
  const number = (value: number) => ({ type: "number", default: value });
  const properties = { n: { type: "number" }, tool_error: number(tool_error), tool_hang: number(tool_hang), hang_ms: number(hang_ms) };
  const work = { type: "function", name: "work", parameters: { type: "object", properties, required: Object.keys(properties) } };
  return { responses_create_params: { input, tools: [work] }, chaos };
}
