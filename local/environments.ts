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
 * Environments whose example rows are for an MCP client harness (NeMo Gym's claude_code_agent): they offer no tools, the
 * harness lists them over the environment's /mcp. edgegym's agent runs them with tool_names=mcp (the model is offered the
 * environment's listing as `mcp__<environment>__<tool>`): `npm start` collects them so, and the row check lets them be.
 */
export const MCP_CLIENT_ROWS: ReadonlySet<string> = new Set(["example_mcp_weather"]);
