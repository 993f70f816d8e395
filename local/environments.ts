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
