// The bundled environments, found on disk (see infra/environments.ts), and their example datasets.
import { existsSync } from "node:fs";
import path from "node:path";
import { discoverEnvironments as discover } from "../infra/environments.js";
import { PROJECT_ROOT } from "./paths.js";

export function discoverEnvironments(root = PROJECT_ROOT): string[] {
  return discover(root);
}

/** The example dataset of an environment, if it ships one. */
export function exampleDataset(name: string, root = PROJECT_ROOT): string | undefined {
  const file = path.join(root, "environments", name, "data", "example.jsonl");
  return existsSync(file) ? file : undefined;
}

/**
 * Environments whose example rows are not for edgegym's own agent: the rows offer no tools because an MCP client harness
 * (NeMo Gym's claude_code_agent) finds them over the environment's /mcp endpoint. `npm start` says so instead of running
 * them; their own tests drive the rows that way.
 */
export const HARNESS_ONLY: Record<string, string> = {
  example_mcp_weather:
    "its rows are for an MCP client harness (NeMo Gym's claude_code_agent finds get_weather over /mcp; the rows offer no tools): tests/mcp/example_mcp_weather.test.ts runs them so",
};
