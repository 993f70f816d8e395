// Reading the NeMo Gym fixtures copied into tests/fixtures (the project never reads outside itself).
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "nemo-gym");

export function fixtureNames(): string[] {
  return readdirSync(FIXTURES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function fixtureRows(name: string): Record<string, unknown>[] {
  return readJsonl(path.join(FIXTURES, name, "example.jsonl"));
}

export function fixtureRollouts(name: string): Record<string, unknown>[] {
  return readJsonl(path.join(FIXTURES, name, "example_rollouts.jsonl"));
}

/** JSON with object keys sorted, so the same value written in another key order compares equal. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** The user-visible input of a row, to pair a recorded rollout with the example row it came from. */
export function inputKey(row: Record<string, unknown>): string {
  const params = row.responses_create_params as { input: unknown };
  const items = typeof params.input === "string" ? [{ role: "user", content: params.input }] : (params.input as { role?: string; content?: unknown }[]);
  return canonical(items.map((item) => [item.role ?? null, item.content ?? null]));
}
