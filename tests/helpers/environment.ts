// An environment's own example rows, read from its data folder (for tests of any environment, scaffolded ones too).
import { readFileSync } from "node:fs";
import path from "node:path";
import { PROJECT_ROOT } from "../../local/paths.js";

export function fixtureRowsOf(name: string): Record<string, unknown>[] {
  return readFileSync(path.join(PROJECT_ROOT, "environments", name, "data", "example.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
