// The bundled environments, found on disk: a folder under environments/ with an index.ts is an environment.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "./paths.js";

export function discoverEnvironments(root = PROJECT_ROOT): string[] {
  const dir = path.join(root, "environments");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "sdk" && existsSync(path.join(dir, entry.name, "index.ts")))
    .map((entry) => entry.name)
    .sort();
}

/** The example dataset of an environment, if it ships one. */
export function exampleDataset(name: string, root = PROJECT_ROOT): string | undefined {
  const file = path.join(root, "environments", name, "data", "example.jsonl");
  return existsSync(file) ? file : undefined;
}
